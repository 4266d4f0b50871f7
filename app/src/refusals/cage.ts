import type { Refusals } from './index';

/** The refusals of the cage's acts (app/src/cage-acts.tsx), by the service's code (see index.ts). */
export const CAGE_REFUSALS: Refusals = {
  en: {
    FRONT_MONEY_SHORT: 'The patron has not that much front money on deposit: deposit it first.',
    MARKER_OVERPAID: 'That is more than the marker still owes.',
    MARKER_VOIDED: 'The buy-in that issued this marker was voided: it takes no payment.',
    MARKER_WRITTEN_OFF: 'This marker was written off: it is owed no more and takes no payment.',
    REPAYMENT_NEEDS_APPROVAL: "A repayment over the property's threshold needs a second person: a credit officer requests it and another approves it.",
    DEAD_CHIPS_NOT_HELD: 'The patron does not hold that many dead chips: the cage takes back no more than they hold.',
    JUNKET_MARKERS_DRAWN: "The junket's markers are all issued as dead chips already: the junket takes a marker on its account first.",
  },
  'zh-Hant': {
    FRONT_MONEY_SHORT: '客人存放的按金不足此數：請先存入。',
    MARKER_OVERPAID: '金額多於此借據尚欠之數。',
    MARKER_VOIDED: '簽發此借據的買碼已作廢：此借據不收還款。',
    MARKER_WRITTEN_OFF: '此借據已撇帳：不再欠款，也不收還款。',
    REPAYMENT_NEEDS_APPROVAL: '超過本娛樂場門檻的還款須由第二人批准：由一位信貸主任申請，另一位批准。',
    DEAD_CHIPS_NOT_HELD: '客人手上沒有這麼多泥碼：賬房只收回客人所持的數目。',
    JUNKET_MARKERS_DRAWN: '中介人的借據已全數發為泥碼：中介人須先在其賬戶開立借據。',
  },
  'zh-Hans': {
    FRONT_MONEY_SHORT: '客人存放的按金不足此数：请先存入。',
    MARKER_OVERPAID: '金额多于此借据尚欠之数。',
    MARKER_VOIDED: '签发此借据的买码已作废：此借据不收还款。',
    MARKER_WRITTEN_OFF: '此借据已撇账：不再欠款，也不收还款。',
    REPAYMENT_NEEDS_APPROVAL: '超过本娱乐场门槛的还款须由第二人批准：由一位信贷主任申请，另一位批准。',
    DEAD_CHIPS_NOT_HELD: '客人手上没有这么多泥码：账房只收回客人所持的数目。',
    JUNKET_MARKERS_DRAWN: '中介人的借据已全数发为泥码：中介人须先在其账户开立借据。',
  },
};
