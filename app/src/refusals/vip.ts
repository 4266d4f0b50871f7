import type { Refusals } from './index';

/** The refusals of the VIP room's and the credit office's acts, by the service's code (see index.ts). */
export const VIP_REFUSALS: Refusals = {
  en: {
    PROGRAMME_NEEDS_APPROVAL:
      "A programme's terms are set by two persons: ask for it in the credit office, have a second officer approve it, then record it there.",
    STATEMENT_NEEDS_APPROVAL:
      "A junket's statement is agreed by two persons: ask for it from the VIP room, have a second officer approve it in the credit office, then record it there.",
    NOT_AS_APPROVED: 'This is not what was approved: its terms differ from the approved request. Record it as approved, or ask for the new terms.',
    COMMISSION_OVER_CAP:
      "That pays more than the property's credit policy allows (commission and allowance on the rolling, or commission on win/loss). Ask for less, or for a new policy.",
    NEGATIVE_CHIPS_IN_HAND:
      "The junket's players would hold fewer than no dead chips at the period's end: more were lost at the tables than the cage sold them. Find the missing purchase first.",
    CREDIT_REQUEST_DECIDED: 'This request was approved or rejected already: nothing more can be decided on it. Read the list again.',
    CREDIT_REQUEST_STALE:
      "This request no longer stands as asked: the credit policy now needs more approvals for it, or the statement's figures have changed since. Reject it and ask again.",
    JUNKET_PERIOD_OPEN: "A statement is agreed once its period has ended: choose a period whose last day is before today's gaming day.",
  },
  'zh-Hant': {
    PROGRAMME_NEEDS_APPROVAL: '轉碼計劃的條款須由兩人訂定：請在信貸辦公室申請，由第二位主任批准，然後在該處記錄。',
    STATEMENT_NEEDS_APPROVAL: '中介人結算單須由兩人確認：請在貴賓廳申請，由第二位主任在信貸辦公室批准，然後在該處記錄。',
    NOT_AS_APPROVED: '此與已批准的內容不符：條款與已批准的申請不同。請按批准內容記錄，或申請新條款。',
    COMMISSION_OVER_CAP: '此超出場館信貸政策所容許的支付（轉碼的佣金及津貼，或輸贏的佣金）。請減少，或申請新政策。',
    NEGATIVE_CHIPS_IN_HAND: '該期結束時中介人客戶所持泥碼將少於零：在賭枱輸掉的多於賬房售出的。請先找出遺漏的購入記錄。',
    CREDIT_REQUEST_DECIDED: '此申請已被批准或拒絕，不能再作決定。請重新讀取清單。',
    CREDIT_REQUEST_STALE: '此申請已不如申請時：按現行信貸政策所需批准更多，或結算單數字自申請後已改變。請拒絕後重新申請。',
    JUNKET_PERIOD_OPEN: '結算單須在該期結束後方可確認：請選擇最後一日在今個博彩日之前的期間。',
  },
  'zh-Hans': {
    PROGRAMME_NEEDS_APPROVAL: '转码计划的条款须由两人订定：请在信贷办公室申请，由第二位主任批准，然后在该处记录。',
    STATEMENT_NEEDS_APPROVAL: '中介人结算单须由两人确认：请在贵宾厅申请，由第二位主任在信贷办公室批准，然后在该处记录。',
    NOT_AS_APPROVED: '此与已批准的内容不符：条款与已批准的申请不同。请按批准内容记录，或申请新条款。',
    COMMISSION_OVER_CAP: '此超出场馆信贷政策所容许的支付（转码的佣金及津贴，或输赢的佣金）。请减少，或申请新政策。',
    NEGATIVE_CHIPS_IN_HAND: '该期结束时中介人客户所持泥码将少于零：在赌台输掉的多于账房售出的。请先找出遗漏的购入记录。',
    CREDIT_REQUEST_DECIDED: '此申请已被批准或拒绝，不能再作决定。请重新读取清单。',
    CREDIT_REQUEST_STALE: '此申请已不如申请时：按现行信贷政策所需批准更多，或结算单数字自申请后已改变。请拒绝后重新申请。',
    JUNKET_PERIOD_OPEN: '结算单须在该期结束后方可确认：请选择最后一日在今个博彩日之前的期间。',
  },
};
