import type { Words } from './i18n';

/**
 * The words every screen shares: the frame, the states a screen is in, what to do about an error,
 * and baccarat's own words as each market reads them. In Macau, Hong Kong and Singapore the
 * Banker is 莊 (庄) in red and the Player 閒 (闲) in blue, as on the English boards; the roads keep
 * their Cantonese names.
 */
/** A pay as the API writes it ("8 to 1", "0.54 to 1") in a language's words, its numbers (exact decimal strings) through `n`; anything else as written. */
export function payIn(p: string, as: (a: string, b: string) => string, n: (v: string) => string): string {
  const m = /^(\d+(?:\.\d+)?) to (\d+)$/.exec(p);
  return m ? as(n(m[1]), n(m[2])) : p;
}

/** What the API says a bet pays in full (its pay, the commission taken, the cases paid otherwise but the tie). */
export interface PayTermsView {
  pays: string;
  commissionBps?: number;
  /** How its commission and fractional pays are rounded, where the API says it matters. */
  rounding?: { mode: string; unit: number } | null;
  except?: { when: string; pays: string | null }[];
}

/** The formatting a bet's pay terms need: exact decimals, percentages and amounts in the table's currency. */
type PayFormat = { decimal: (v: string) => string; percent: (p: string) => string; currency: (v: number, currency: string) => string };

/**
 * A bet's pay in full in a language: "1 to 1 · less 5% commission", "1 to 1 · 1 to 2 when Banker
 * wins with 6". The tie's push of Player and Banker is every table's and goes unsaid.
 */
export function payTermsIn(b: PayTermsView, w: (typeof WORDS)['en'], f: PayFormat, currency: string): string {
  return [payIn(b.pays, w.paysAs, f.decimal), ...payNotesIn(b, w, f, currency)].join(' · ');
}

/**
 * What a bet's pay alone does not say, in a language: "less 5% commission", "1 to 2 when Banker wins
 * with 6", "rounded up to a multiple of HK$10".
 */
export function payNotesIn(b: PayTermsView, w: (typeof WORDS)['en'], f: PayFormat, currency: string): string[] {
  const notes: string[] = [];
  if (b.commissionBps) notes.push(w.payTerms.commission(f.percent(percentOfBps(b.commissionBps))));
  for (const e of b.except ?? []) {
    if (e.when === 'TIE') continue;
    const when = w.payTerms.cases[e.when as keyof typeof w.payTerms.cases] ?? e.when;
    notes.push(e.pays === null ? w.payTerms.push(when) : w.payTerms.otherwise(payIn(e.pays, w.paysAs, f.decimal), when));
  }
  const r = b.rounding;
  const said = r && (b.commissionBps ? w.payTerms.rounded.commission : w.payTerms.rounded.pays)[r.mode as 'FLOOR' | 'HALF_UP' | 'CEILING'];
  if (r) notes.push(said ? said(f.currency(r.unit, currency)) : `${r.mode} ${r.unit}`);
  return notes;
}

/** Basis points as an exact percentage string: 500 → "5", 125 → "1.25". */
export function percentOfBps(bps: number): string {
  const frac = String(bps % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${Math.floor(bps / 100)}${frac ? '.' + frac : ''}`;
}

const en = {
  brand: 'Sabot',
  /** "8 to 1" (the tie's pay). */
  paysAs: (a: string, b: string) => `${a} to ${b}`,
  payTerms: {
    commission: (pct: string) => `less ${pct} commission`,
    otherwise: (pay: string, when: string) => `${pay} when ${when}`,
    push: (when: string) => `stake returned when ${when}`,
    /** How the commission (charged) or a fractional pay (paid) is rounded, to a multiple of an amount: said apart, as they cut opposite ways. */
    rounded: {
      commission: {
        FLOOR: (unit: string) => `commission rounded down to a multiple of ${unit}`,
        HALF_UP: (unit: string) => `commission rounded to the nearest multiple of ${unit}`,
        CEILING: (unit: string) => `commission rounded up to a multiple of ${unit}`,
      },
      pays: {
        FLOOR: (unit: string) => `pays rounded down to a multiple of ${unit}`,
        HALF_UP: (unit: string) => `pays rounded to the nearest multiple of ${unit}`,
        CEILING: (unit: string) => `pays rounded up to a multiple of ${unit}`,
      },
    },
    cases: {
      BANKER_WINS_WITH_6: 'Banker wins with 6',
      BANKER_WINS_WITH_THREE_CARD_7: 'Banker wins with a three-card 7',
      BOTH_PERFECT_PAIRS: 'both hands are perfect pairs',
      TIE: 'a tie',
    },
  },
  screensNav: 'Screens',
  language: 'Language',
  signIn: 'Sign in',
  signOut: 'Sign out',
  apiKey: 'API key',
  keyHint: 'Use a key your administrator made for you. It is kept only in this browser tab.',
  noAnswer: 'The service did not answer',
  keyRefused: 'The service no longer takes this key (revoked or expired).',
  live: 'Live',
  connecting: 'Connecting…',
  loading: 'Loading…',
  screens: {
    pit: 'Pit overview',
    finance: 'Finance',
    yield: 'Yield',
    surveillance: 'Surveillance',
    patrons: 'Patrons',
    cage: 'Cage and compliance',
    vip: 'VIP room',
    credit: 'Credit office',
    admin: 'Administration',
  },
  notAllowed: 'This key may not open this screen. Ask your administrator for a key of the right role.',
  noSuchScreen: 'There is no such screen',
  /** What to do about an error, by the API's code. */
  advice: {
    UNAUTHENTICATED: 'Sign in again with a valid key.',
    FORBIDDEN: 'This is not for this key to do (its role, or the rule the message names): ask a person who may, or your administrator.',
    NOT_FOUND: 'Check the address, or pick the record again from its list.',
    VALIDATION_FAILED: 'Correct the field named and try again.',
    RATE_LIMITED: 'Too many requests: the screen tries again by itself in a moment.',
    SERVICE_UNAVAILABLE: 'The database is not answering: the screen tries again by itself.',
    REPLICA_BEHIND: 'The reporting copy is behind: the screen tries again by itself.',
    NETWORK: 'Check the network; the screen tries again by itself.',
    UNKNOWN_PATRON: 'Check the card number: no patron is registered with it.',
    JUNKET_PERIOD_LOCKED: 'Part of these days is an agreed, locked statement: ask for that period whole, or for the days after it.',
    ALERT_ALREADY_ACKNOWLEDGED: 'Someone acknowledged it first: the alert is shown as it is now.',
    ALERT_CLOSED: 'It was closed meanwhile: the alert is shown as it is now, and nothing more can be recorded on it.',
    OTHER: 'Try again; if it persists, give the code to your administrator.',
  } as Record<string, string>,
  code: 'Code',
  winner: { BANKER: 'Banker', PLAYER: 'Player', TIE: 'Tie' } as Record<string, string>,
  /** One character a bead: B, P, T. */
  bead: { BANKER: 'B', PLAYER: 'P', TIE: 'T' } as Record<string, string>,
  roads: { beadPlate: 'Bead plate', bigRoad: 'Big road', bigEyeBoy: 'Big eye boy', smallRoad: 'Small road', cockroachPig: 'Cockroach pig' },
  red: 'red',
  blue: 'blue',
  noneYet: 'none yet',
  lookAhead: 'Look-ahead',
  ifNext: 'If',
  bankerNext: 'Banker next',
  playerNext: 'Player next',
  beadSummary: (coups: string, b: string, p: string, t: string) => `${coups} coups, ${b} Banker, ${p} Player, ${t} Tie`,
  bigRoadSummary: (columns: string) => `${columns} columns`,
  derivedSummary: (marks: string, red: string, blue: string) => `${marks} marks, ${red} red, ${blue} blue`,
  bets: {
    PLAYER: 'Player',
    BANKER: 'Banker',
    TIE: 'Tie',
    PLAYER_PAIR: 'Player pair',
    BANKER_PAIR: 'Banker pair',
    EITHER_PAIR: 'Either pair',
    PERFECT_PAIR: 'Perfect pair',
    BIG: 'Big',
    SMALL: 'Small',
    SUPER_6: 'Super 6',
    DRAGON_7: 'Dragon 7',
    PANDA_8: 'Panda 8',
  } as Record<string, string>,
  variants: {
    COMMISSION: 'Punto banco',
    SUPER_6: 'Super 6',
    EZ: 'EZ Baccarat',
    CHEMIN_DE_FER: 'Chemin de fer',
    BANQUE: 'Baccarat banque',
  } as Record<string, string>,
};

export const WORDS: Words<typeof en> = {
  en,
  'zh-Hant': {
    brand: 'Sabot',
    paysAs: (a, b) => `${b} 賠 ${a}`,
    payTerms: {
      commission: (pct) => `抽水 ${pct}`,
      otherwise: (pay, when) => `${when}時 ${pay}`,
      push: (when) => `${when}時退回注碼`,
      rounded: {
        commission: {
          FLOOR: (unit) => `抽水以 ${unit} 為單位捨去`,
          HALF_UP: (unit) => `抽水以 ${unit} 為單位四捨五入`,
          CEILING: (unit) => `抽水以 ${unit} 為單位進位`,
        },
        pays: {
          FLOOR: (unit) => `派彩以 ${unit} 為單位捨去`,
          HALF_UP: (unit) => `派彩以 ${unit} 為單位四捨五入`,
          CEILING: (unit) => `派彩以 ${unit} 為單位進位`,
        },
      },
      cases: {
        BANKER_WINS_WITH_6: '莊以 6 點勝',
        BANKER_WINS_WITH_THREE_CARD_7: '莊以三張牌 7 點勝',
        BOTH_PERFECT_PAIRS: '莊閒皆完美對子',
        TIE: '和局',
      },
    },
    screensNav: '畫面',
    language: '語言',
    signIn: '登入',
    signOut: '登出',
    apiKey: 'API 金鑰',
    keyHint: '請使用管理員為您建立的金鑰。金鑰只保存在此瀏覽器分頁中。',
    noAnswer: '服務沒有回應',
    keyRefused: '服務已不再接受此金鑰（已撤銷或已過期）。',
    live: '即時',
    connecting: '連線中…',
    loading: '載入中…',
    screens: {
      pit: '賭區總覽',
      finance: '財務',
      yield: '收益建議',
      surveillance: '監察',
      patrons: '客戶',
      cage: '賬房與合規',
      vip: '貴賓廳',
      credit: '信貸辦公室',
      admin: '系統管理',
    },
    notAllowed: '此金鑰不能開啟此畫面。請向管理員索取適當角色的金鑰。',
    noSuchScreen: '沒有這個畫面',
    advice: {
      UNAUTHENTICATED: '請以有效的金鑰重新登入。',
      FORBIDDEN: '此金鑰不能辦理此事（其角色，或訊息所述的規則）：請交由可辦理的人，或向管理員查詢。',
      NOT_FOUND: '請檢查網址，或從清單重新選擇。',
      VALIDATION_FAILED: '請更正所指欄位後再試。',
      RATE_LIMITED: '請求過多：畫面稍後會自動重試。',
      SERVICE_UNAVAILABLE: '資料庫沒有回應：畫面會自動重試。',
      REPLICA_BEHIND: '報表副本落後：畫面會自動重試。',
      NETWORK: '請檢查網絡；畫面會自動重試。',
      UNKNOWN_PATRON: '請核對卡號：沒有以此卡號登記的客戶。',
      JUNKET_PERIOD_LOCKED: '所選日子部分屬已確認並鎖定的結算單：請查閱整個已確認期間，或其後的日子。',
      ALERT_ALREADY_ACKNOWLEDGED: '已有人先確認跟進：畫面顯示警報的最新狀態。',
      ALERT_CLOSED: '警報已在此期間結案：畫面顯示其最新狀態，不能再記錄任何步驟。',
      OTHER: '請再試；如問題持續，請把代碼告知管理員。',
    },
    code: '代碼',
    winner: { BANKER: '莊', PLAYER: '閒', TIE: '和' },
    bead: { BANKER: '莊', PLAYER: '閒', TIE: '和' },
    roads: { beadPlate: '珠盤路', bigRoad: '大路', bigEyeBoy: '大眼仔', smallRoad: '小路', cockroachPig: '曱甴路' },
    red: '紅',
    blue: '藍',
    noneYet: '未有',
    lookAhead: '問路',
    ifNext: '如下一局',
    bankerNext: '莊問路',
    playerNext: '閒問路',
    beadSummary: (coups, b, p, t) => `${coups} 局：莊 ${b}、閒 ${p}、和 ${t}`,
    bigRoadSummary: (columns) => `${columns} 行`,
    derivedSummary: (marks, red, blue) => `${marks} 個記號：紅 ${red}、藍 ${blue}`,
    bets: {
      PLAYER: '閒',
      BANKER: '莊',
      TIE: '和',
      PLAYER_PAIR: '閒對',
      BANKER_PAIR: '莊對',
      EITHER_PAIR: '任意對子',
      PERFECT_PAIR: '完美對子',
      BIG: '大',
      SMALL: '小',
      SUPER_6: '超級六',
      DRAGON_7: '龍七',
      PANDA_8: '熊貓八',
    },
    variants: {
      COMMISSION: '百家樂（抽佣）',
      SUPER_6: '超級六百家樂',
      EZ: 'EZ 百家樂（免佣）',
      CHEMIN_DE_FER: '鐵路百家樂',
      BANQUE: '銀行百家樂',
    },
  },
  'zh-Hans': {
    brand: 'Sabot',
    paysAs: (a, b) => `${b} 赔 ${a}`,
    payTerms: {
      commission: (pct) => `抽水 ${pct}`,
      otherwise: (pay, when) => `${when}时 ${pay}`,
      push: (when) => `${when}时退回注码`,
      rounded: {
        commission: {
          FLOOR: (unit) => `抽水以 ${unit} 为单位舍去`,
          HALF_UP: (unit) => `抽水以 ${unit} 为单位四舍五入`,
          CEILING: (unit) => `抽水以 ${unit} 为单位进位`,
        },
        pays: {
          FLOOR: (unit) => `派彩以 ${unit} 为单位舍去`,
          HALF_UP: (unit) => `派彩以 ${unit} 为单位四舍五入`,
          CEILING: (unit) => `派彩以 ${unit} 为单位进位`,
        },
      },
      cases: {
        BANKER_WINS_WITH_6: '庄以 6 点胜',
        BANKER_WINS_WITH_THREE_CARD_7: '庄以三张牌 7 点胜',
        BOTH_PERFECT_PAIRS: '庄闲皆完美对子',
        TIE: '和局',
      },
    },
    screensNav: '画面',
    language: '语言',
    signIn: '登录',
    signOut: '退出',
    apiKey: 'API 密钥',
    keyHint: '请使用管理员为您创建的密钥。密钥只保存在此浏览器标签页中。',
    noAnswer: '服务没有响应',
    keyRefused: '服务已不再接受此密钥（已撤销或已过期）。',
    live: '实时',
    connecting: '连接中…',
    loading: '加载中…',
    screens: {
      pit: '赌区总览',
      finance: '财务',
      yield: '收益建议',
      surveillance: '监控',
      patrons: '客户',
      cage: '账房与合规',
      vip: '贵宾厅',
      credit: '信贷办公室',
      admin: '系统管理',
    },
    notAllowed: '此密钥不能打开此画面。请向管理员索取适当角色的密钥。',
    noSuchScreen: '没有这个画面',
    advice: {
      UNAUTHENTICATED: '请用有效的密钥重新登录。',
      FORBIDDEN: '此密钥不能办理此事（其角色，或信息所述的规则）：请交由可办理的人，或向管理员查询。',
      NOT_FOUND: '请检查网址，或从列表重新选择。',
      VALIDATION_FAILED: '请更正所指字段后再试。',
      RATE_LIMITED: '请求过多：画面稍后会自动重试。',
      SERVICE_UNAVAILABLE: '数据库没有响应：画面会自动重试。',
      REPLICA_BEHIND: '报表副本落后：画面会自动重试。',
      NETWORK: '请检查网络；画面会自动重试。',
      UNKNOWN_PATRON: '请核对卡号：没有以此卡号登记的客户。',
      JUNKET_PERIOD_LOCKED: '所选日子部分属已确认并锁定的结算单：请查阅整个已确认期间，或其后的日子。',
      ALERT_ALREADY_ACKNOWLEDGED: '已有人先确认跟进：画面显示警报的最新状态。',
      ALERT_CLOSED: '警报已在此期间结案：画面显示其最新状态，不能再记录任何步骤。',
      OTHER: '请再试；如问题持续，请把代码告知管理员。',
    },
    code: '代码',
    winner: { BANKER: '庄', PLAYER: '闲', TIE: '和' },
    bead: { BANKER: '庄', PLAYER: '闲', TIE: '和' },
    roads: { beadPlate: '珠盘路', bigRoad: '大路', bigEyeBoy: '大眼仔', smallRoad: '小路', cockroachPig: '蟑螂路' },
    red: '红',
    blue: '蓝',
    noneYet: '未有',
    lookAhead: '问路',
    ifNext: '如下一局',
    bankerNext: '庄问路',
    playerNext: '闲问路',
    beadSummary: (coups, b, p, t) => `${coups} 局：庄 ${b}、闲 ${p}、和 ${t}`,
    bigRoadSummary: (columns) => `${columns} 列`,
    derivedSummary: (marks, red, blue) => `${marks} 个记号：红 ${red}、蓝 ${blue}`,
    bets: {
      PLAYER: '闲',
      BANKER: '庄',
      TIE: '和',
      PLAYER_PAIR: '闲对',
      BANKER_PAIR: '庄对',
      EITHER_PAIR: '任意对子',
      PERFECT_PAIR: '完美对子',
      BIG: '大',
      SMALL: '小',
      SUPER_6: '超级六',
      DRAGON_7: '龙七',
      PANDA_8: '熊猫八',
    },
    variants: {
      COMMISSION: '百家乐（抽佣）',
      SUPER_6: '超级六百家乐',
      EZ: 'EZ 百家乐（免佣）',
      CHEMIN_DE_FER: '铁路百家乐',
      BANQUE: '银行百家乐',
    },
  },
};
