import type { Lang } from '../i18n';
import { PIT_REFUSALS } from './pit';
import { CAGE_REFUSALS } from './cage';
import { VIP_REFUSALS } from './vip';
import { ADMIN_REFUSALS } from './admin';

/**
 * What each refusal of the service means, by its stable code, in each language: the sentence a
 * screen shows above the service's own (English) message. Each desk keeps the codes its acts can be
 * refused with in its own file; a code missing here is shown with the service's message and the
 * general advice.
 */
export type Refusals = Record<Lang, Record<string, string>>;

/** Refusals every desk meets, said the same on each: one person acting as two, a clash with what is recorded, a junket's locked period. */
const EVERY_DESK: Refusals = {
  en: {
    SAME_PERSON:
      'A second person must do this: nobody approves or rejects what they asked for or proposed, decides about their own record or key, or witnesses a key they minted or hold.',
    CONFLICT:
      'This clashes with what is recorded now: it was recorded already, or something changed meanwhile. Read the list again; the message below says what.',
    JUNKET_PERIOD_LOCKED: "That falls in a junket's period agreed and locked: nothing may change it. Choose days after that period.",
  },
  'zh-Hant': {
    SAME_PERSON: '此事須由另一人辦理：任何人不得批准或拒絕自己提出的申請或提議、決定自己的紀錄或金鑰，或見證自己建立或持有的金鑰。',
    CONFLICT: '此與現有紀錄衝突：已經記錄，或期間有所改變。請重新讀取清單；下方訊息說明原因。',
    JUNKET_PERIOD_LOCKED: '此屬中介人已確認並鎖定的結算期，不能更改。請選擇該期之後的日子。',
  },
  'zh-Hans': {
    SAME_PERSON: '此事须由另一人办理：任何人不得批准或拒绝自己提出的申请或提议、决定自己的记录或密钥，或见证自己建立或持有的密钥。',
    CONFLICT: '此与现有记录冲突：已经记录，或期间有所改变。请重新读取清单；下方信息说明原因。',
    JUNKET_PERIOD_LOCKED: '此属中介人已确认并锁定的结算期，不能更改。请选择该期之后的日子。',
  },
};

export const REFUSALS: Refusals = {
  en: { ...EVERY_DESK.en, ...PIT_REFUSALS.en, ...CAGE_REFUSALS.en, ...VIP_REFUSALS.en, ...ADMIN_REFUSALS.en },
  'zh-Hant': { ...EVERY_DESK['zh-Hant'], ...PIT_REFUSALS['zh-Hant'], ...CAGE_REFUSALS['zh-Hant'], ...VIP_REFUSALS['zh-Hant'], ...ADMIN_REFUSALS['zh-Hant'] },
  'zh-Hans': { ...EVERY_DESK['zh-Hans'], ...PIT_REFUSALS['zh-Hans'], ...CAGE_REFUSALS['zh-Hans'], ...VIP_REFUSALS['zh-Hans'], ...ADMIN_REFUSALS['zh-Hans'] },
};
