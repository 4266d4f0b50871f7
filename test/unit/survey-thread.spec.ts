import fs from 'node:fs';
import os from 'node:os';
import { coupOdds, fullShoe, parseCards, PlayedCoup, removeCards, ruleSet, seededRandom, shuffledShoe, surveyRecord } from '../../src/domain';
import { SurveyThread } from '../../src/surveillance/survey-thread-client';

/**
 * The surveillance's arithmetic on its own thread (the build's copy, src/surveillance/survey-thread.ts):
 * what comes back is what the domain computes in place, bigints and NaNs included; a job that
 * throws fails alone; and the thread runs at the lowest priority, so the pit's work comes first.
 */
const thread = new SurveyThread();
afterAll(() => thread.stop());

const rules = ruleSet({ variant: 'EZ' });

describe('the surveillance thread', () => {
  it("answers each coup's odds exactly as the domain does, for shoes dealt to every depth", async () => {
    const cards = shuffledShoe(8, seededRandom(5));
    const depths = [0, 6, 100, 250, 380];
    const answers = await Promise.all(depths.map((n) => thread.coupOdds(rules, removeCards(fullShoe(8), cards.slice(0, n)))));
    depths.forEach((n, i) => expect(answers[i]).toEqual(coupOdds(rules, removeCards(fullShoe(8), cards.slice(0, n)))));
    expect(answers.map((a) => a.depth)).toEqual([0, 0, 0, 2, 3]);
  });

  it("answers a patron's record as the domain does (stakes as bigints, impossible first cards as NaN)", async () => {
    const odds = coupOdds(rules, removeCards(fullShoe(8), parseCards(['7H', '7S', '7D', '7C'])));
    const record: PlayedCoup[] = Array.from({ length: 30 }, (_, i) => ({
      coupId: `c${i}`,
      shoeId: 's1',
      dealerId: 'D-1',
      odds,
      firstValue: i % 10,
      wagers: [{ betType: 'DRAGON_7', stake: 100_000n + BigInt(i), paid: i % 7 === 0, net: i % 7 === 0 ? 4_000_000n : -100_000n }],
    }));
    const findings = await thread.surveyRecord(record);
    expect(findings).toEqual(surveyRecord(record));
    expect(findings.map((f) => f.kind)).toEqual(['COUNT_BETTING', 'WINS_BEYOND_ODDS', 'MONEY_BEYOND_ODDS', 'FIRST_CARD_KNOWLEDGE', 'DEALER_PAIRING']);
  });

  it('a job that throws fails alone, with its message; the next is answered', async () => {
    const bad = thread.coupOdds(rules, new Array<number>(13).fill(0));
    const good = thread.coupOdds(rules, fullShoe(8));
    await expect(bad).rejects.toThrow(/./);
    expect(await good).toEqual(coupOdds(rules, fullShoe(8)));
  });

  // Linux only, and only where the process does not run at the lowest priority already.
  (fs.existsSync('/proc/self/task') && os.getPriority() < 19 ? it : it.skip)('runs at the lowest priority (nice 19), and only itself', async () => {
    await thread.coupOdds(rules, fullShoe(8));
    const nice = fs.readdirSync('/proc/self/task').map((t) => {
      const stat = fs.readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
    expect(nice.filter((n) => n === 19)).toHaveLength(1);
    expect(new Set(nice.filter((n) => n !== 19)).size).toBe(1); // the rest as the process was started
  });
});
