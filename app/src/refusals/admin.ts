import type { Lang } from '../i18n';
import type { Refusals } from './index';

/** The refusals of the admin desk's acts, by the service's code (see index.ts). */
export const ADMIN_REFUSALS: Refusals = {
  en: {
    SECOND_ADMINISTRATOR_NEEDED: 'An administrator’s key is revoked by two administrators: propose the revocation, and another administrator approves it.',
    TOO_FEW_ADMINISTRATORS:
      'The register must keep at least two active administrators who hold a key of their own: register another administrator and hand them their key first.',
    STAFF_CHANGE_PENDING: 'A change to this person’s record is already waiting: approve or reject it first.',
    STAFF_CHANGE_DECIDED: 'This change was approved or rejected already: read again.',
    STAFF_NOT_REGISTERED: 'This staff number is not on the register (or holds no such role): register the person first.',
    KEY_ALREADY_CLAIMED: 'This key was claimed already, or its claim witnessed already.',
    KEY_NOT_CLAIMED: 'Its holder has not claimed the key yet, or it was revoked: there is no claim to witness.',
    KEY_REVOKED: 'This key was revoked already.',
    KEY_REVOCATION_PENDING: 'A revocation of this key is already waiting for a second administrator.',
    KEY_REVOCATION_DECIDED: 'This revocation was approved or rejected already: read again.',
    CONFLICT: 'This record exists already: a code or number must be unique, so choose another.',
    INVALID_RULES: 'The table’s rules or limits do not fit together (the minimum must not exceed the maximum).',
    TABLE_CLOSED: 'The table is closed already.',
    TABLE_OPEN: 'The table is open already.',
    TABLE_HAS_OPEN_SHOE: 'The table still has a shoe open: close the shoe first.',
    COUP_IN_PROGRESS: 'A coup of this table is open for betting: its cards are recorded first.',
  },
  'zh-Hant': {
    SECOND_ADMINISTRATOR_NEEDED: '管理員的金鑰須由兩位管理員撤銷：請提出撤銷，由另一位管理員批准。',
    TOO_FEW_ADMINISTRATORS: '名冊須保留至少兩位持有本人金鑰的在職管理員：請先登記另一位管理員並交付其金鑰。',
    STAFF_CHANGE_PENDING: '此人的紀錄已有一項更改待決：請先批准或拒絕該項更改。',
    STAFF_CHANGE_DECIDED: '此更改已被批准或拒絕：請重新讀取。',
    STAFF_NOT_REGISTERED: '名冊上沒有此員工編號（或其不具此角色）：請先登記此人。',
    KEY_ALREADY_CLAIMED: '此金鑰已被領取，或其領取已有人見證。',
    KEY_NOT_CLAIMED: '持有人尚未領取此金鑰，或金鑰已撤銷：沒有可見證的領取。',
    KEY_REVOKED: '此金鑰已被撤銷。',
    KEY_REVOCATION_PENDING: '此金鑰已有一項撤銷待另一位管理員決定。',
    KEY_REVOCATION_DECIDED: '此撤銷已被批准或拒絕：請重新讀取。',
    CONFLICT: '此紀錄已存在：編號須唯一，請另選一個。',
    INVALID_RULES: '賭枱的規則或限額互相矛盾（最低不得高於最高）。',
    TABLE_CLOSED: '此賭枱已關閉。',
    TABLE_OPEN: '此賭枱已開放。',
    TABLE_HAS_OPEN_SHOE: '此賭枱仍有牌靴未關閉：須先關閉牌靴。',
    COUP_IN_PROGRESS: '此賭枱有一局正在接受投注：須先記錄該局的牌。',
  },
  'zh-Hans': {
    SECOND_ADMINISTRATOR_NEEDED: '管理员的密钥须由两位管理员撤销：请提出撤销，由另一位管理员批准。',
    TOO_FEW_ADMINISTRATORS: '名册须保留至少两位持有本人密钥的在职管理员：请先登记另一位管理员并交付其密钥。',
    STAFF_CHANGE_PENDING: '此人的记录已有一项更改待决：请先批准或拒绝该项更改。',
    STAFF_CHANGE_DECIDED: '此更改已被批准或拒绝：请重新读取。',
    STAFF_NOT_REGISTERED: '名册上没有此员工编号（或其不具此角色）：请先登记此人。',
    KEY_ALREADY_CLAIMED: '此密钥已被领取，或其领取已有人见证。',
    KEY_NOT_CLAIMED: '持有人尚未领取此密钥，或密钥已撤销：没有可见证的领取。',
    KEY_REVOKED: '此密钥已被撤销。',
    KEY_REVOCATION_PENDING: '此密钥已有一项撤销待另一位管理员决定。',
    KEY_REVOCATION_DECIDED: '此撤销已被批准或拒绝：请重新读取。',
    CONFLICT: '此记录已存在：编号须唯一，请另选一个。',
    INVALID_RULES: '赌台的规则或限额互相矛盾（最低不得高于最高）。',
    TABLE_CLOSED: '此赌台已关闭。',
    TABLE_OPEN: '此赌台已开放。',
    TABLE_HAS_OPEN_SHOE: '此赌台仍有牌靴未关闭：须先关闭牌靴。',
    COUP_IN_PROGRESS: '此赌台有一局正在接受投注：须先记录该局的牌。',
  },
};

/**
 * The service refuses a two-person act by one person on both sides (approving one's own proposal,
 * deciding about one's own key or record, witnessing a key one minted) as FORBIDDEN with its
 * reason; the admin desk says this first, in the screen's language, above the service's words.
 */
export const SECOND_PERSON: Record<Lang, string> = {
  en: 'A second person must do this: nobody approves their own proposal, decides about their own record or key, or witnesses a key they minted or hold.',
  'zh-Hant': '此事須由另一人辦理：任何人不得批准自己的提議、決定自己的紀錄或金鑰，或見證自己建立或持有的金鑰。',
  'zh-Hans': '此事须由另一人办理：任何人不得批准自己的提议、决定自己的记录或密钥，或见证自己建立或持有的密钥。',
};
