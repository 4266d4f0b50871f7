import { payTermsIn, WORDS } from '../../app/src/words';
import { offeredBets, ruleSet, Variant } from '../../src/domain';
import { payTermsView } from '../../src/platform/common/pay-terms.dto';

/**
 * A bet's pay in full as the screens say it, from the terms the API answers for the table's rules
 * (numbers as given: the screens' Intl formatting is the browser specs' to check).
 */
const formatter = (_lang: string) => ({ decimal: (v: string) => v, percent: (p: string) => `${p}%`, currency: (v: number, c: string) => `${c} ${v / 100}` });
describe('payTermsIn', () => {
  const said = (lang: 'en' | 'zh-Hant' | 'zh-Hans', variant: Variant, bet: 'BANKER' | 'PLAYER' | 'BIG' | 'PERFECT_PAIR', extra = {}) =>
    payTermsIn(
      payTermsView(ruleSet({ variant, sideBets: variant === 'COMMISSION' ? ['BIG', 'PERFECT_PAIR'] : [], ...extra }), bet),
      WORDS[lang],
      formatter(lang),
      'HKD',
    );

  it.each([
    ['en', 'COMMISSION', 'BANKER', {}, '1 to 1 · less 5% commission'],
    ['en', 'COMMISSION', 'BANKER', { commissionBps: 250 }, '1 to 1 · less 2.5% commission'],
    ['en', 'SUPER_6', 'BANKER', {}, '1 to 1 · 0.5 to 1 when Banker wins with 6'],
    ['en', 'EZ', 'BANKER', {}, '1 to 1 · stake returned when Banker wins with a three-card 7'],
    ['en', 'COMMISSION', 'PLAYER', {}, '1 to 1'],
    ['en', 'COMMISSION', 'BIG', {}, '0.54 to 1'],
    ['en', 'COMMISSION', 'PERFECT_PAIR', { perfectPairBothPays: { numerator: 250, denominator: 1 } }, '25 to 1 · 250 to 1 when both hands are perfect pairs'],
    ['zh-Hant', 'SUPER_6', 'BANKER', {}, '1 賠 1 · 莊以 6 點勝時 1 賠 0.5'],
    ['zh-Hant', 'COMMISSION', 'BANKER', {}, '1 賠 1 · 抽水 5%'],
    ['zh-Hans', 'EZ', 'BANKER', {}, '1 赔 1 · 庄以三张牌 7 点胜时退回注码'],
    ['zh-Hans', 'COMMISSION', 'BIG', {}, '1 赔 0.54'],
    [
      'en',
      'COMMISSION',
      'BANKER',
      { commissionBps: 250, rounding: { mode: 'CEILING', unit: 1000 } },
      '1 to 1 · less 2.5% commission · commission rounded up to a multiple of HKD 10',
    ],
    [
      'en',
      'SUPER_6',
      'BANKER',
      { rounding: { mode: 'FLOOR', unit: 500 } },
      '1 to 1 · 0.5 to 1 when Banker wins with 6 · pays rounded down to a multiple of HKD 5',
    ],
    ['zh-Hant', 'COMMISSION', 'BANKER', { rounding: { mode: 'HALF_UP', unit: 100 } }, '1 賠 1 · 抽水 5% · 抽水以 HKD 1 為單位四捨五入'],
    ['zh-Hans', 'COMMISSION', 'BANKER', { rounding: { mode: 'CEILING', unit: 1000 } }, '1 赔 1 · 抽水 5% · 抽水以 HKD 10 为单位进位'],
    ['en', 'COMMISSION', 'PLAYER', { rounding: { mode: 'CEILING', unit: 1000 } }, '1 to 1'],
  ] as const)('%s %s %s %j: %s', (lang, variant, bet, extra, text) => {
    expect(said(lang, variant, bet, extra)).toBe(text);
  });

  it('says a pay for every bet every casino-banked table offers', () => {
    for (const variant of ['COMMISSION', 'SUPER_6', 'EZ'] as Variant[]) {
      const rules = ruleSet({ variant });
      for (const bet of offeredBets(rules)) expect(payTermsIn(payTermsView(rules, bet), WORDS.en, formatter('en'), 'HKD')).toMatch(/^\d+(\.\d+)? to \d+/);
    }
  });
});
