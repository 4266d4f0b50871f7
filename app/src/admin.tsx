import { ROLE_NAMES } from './role-names';
import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { ActProblem, Done, useAct } from './act';
import { get, Schemas } from './api';
import { mayCall, useCaller } from './caller';
import { Head, Money } from './cells';
import { ErrorNote } from './error-note';
import { minorOf } from './amounts';
import { exponentOf, useFormat } from './format';
import { useLoad } from './hooks';
import { useT, Words } from './i18n';
import { Scroll } from './scroll';
import { WORDS } from './words';

/**
 * The administration desk: the staff register (a change proposed by one administrator, approved
 * or rejected by another), the API keys (minted, claimed by their holder in front of a second
 * administrator who witnesses it, revoked: an administrator's key by two), and the properties and
 * tables with their limits. Each part and each act is shown only to a role that may call it. The
 * screen reads again after each act and when asked (nothing here is live).
 */
const en = {
  title: 'Administration',
  readAgain: 'Read again',
  notLive: 'Read when opened, after each act and when asked: another administrator’s acts show after Read again.',
  yes: 'yes',
  no: 'no',
  roles: ROLE_NAMES['en'],
  // Staff register
  staff: 'Staff register',
  staffCaption: 'Every person on the register, with the roles they hold now',
  staffColumns: ['Staff number', 'Name', 'Roles', 'Active'],
  noStaff: 'Nobody is on the register yet.',
  propose: 'Propose a change to a person’s record',
  proposeHint: 'The record as it should be: nothing changes until a second administrator approves. Nobody proposes a change to their own record.',
  staffId: 'Staff number',
  name: 'Name',
  rolesLegend: 'Roles',
  active: 'Active (unticked: every role and key of theirs stops)',
  reason: 'Reason',
  sendProposal: 'Propose',
  proposed: (who: string) => `Change to ${who} proposed: it waits for a second administrator.`,
  pending: 'Changes waiting for a second administrator',
  pendingCaption: 'Proposed changes to the register, oldest first',
  pendingColumns: ['Staff number', 'Name', 'Roles', 'Active', 'Reason', 'Proposed'],
  noPending: 'No change is waiting.',
  decide: 'Decide',
  change: 'Change',
  note: 'Note (required to reject)',
  approve: 'Approve',
  reject: 'Reject',
  approved: 'Approved.',
  rejected: 'Rejected.',
  // Keys
  keys: 'API keys',
  keysCaption: 'Every API key, newest first (never the key itself)',
  keyColumns: ['Name', 'Role', 'Person', 'Table', 'Begins', 'Claimed', 'Witnessed', 'Revoked'],
  noKeys: 'No key has been made yet.',
  mint: 'Mint a key',
  mintHint: 'A person’s key needs their staff number; a table terminal’s or display’s needs its table. Nobody mints a key for themselves.',
  keyName: 'Who or what uses it',
  role: 'Role',
  table: 'Table',
  expires: 'Expires (optional)',
  sendMint: 'Mint',
  minted: (name: string) => `Key for ${name} minted. Hand it over now: it is shown only this once.`,
  mintedKey: 'The key',
  claimFlow:
    'Its holder signs in with it and claims it (a new secret only they see); then a second administrator, in front of them, witnesses the claim below. A table’s key needs no claim.',
  replayed: 'This answer was a repeat of an earlier one: the key is not shown again. Revoke it and mint another if it was lost.',
  witness: 'Witness a claim',
  witnessHint: 'Only keys their holder has claimed and nobody has witnessed yet. Not a key you minted or hold.',
  claimedKey: 'Claimed key',
  sendWitness: 'Witness the claim',
  witnessed: 'Claim witnessed: the key is its person’s alone.',
  noClaims: 'No claim is waiting for a witness.',
  revoke: 'Revoke a key',
  revokeHint:
    'A table’s key or a key of someone who is not an administrator stops at once. An administrator’s key takes two: you propose, another administrator approves.',
  liveKey: 'Key',
  revokeNow: 'Revoke now',
  proposeRevocation: 'Propose the revocation',
  adminKey: 'An administrator’s key: a second administrator must approve.',
  revoked: 'Revoked: the key stops with its next request.',
  revocationProposed: 'Revocation proposed: it waits for a second administrator.',
  revocations: 'Key revocations waiting for a second administrator',
  revocationsCaption: 'Proposed revocations, oldest first',
  revocationColumns: ['Key', 'Role', 'Person', 'Reason', 'Proposed'],
  noRevocations: 'No revocation is waiting.',
  revocation: 'Revocation',
  // Properties and tables
  properties: 'Properties',
  propertiesCaption: 'Every property',
  propertyColumns: ['Name', 'Time zone', 'Gaming day starts', 'Cash reports in'],
  noProperties: 'No property is set up yet.',
  addProperty: 'Add a property',
  propertyName: 'Name',
  timeZone: 'Time zone (IANA)',
  dayStart: 'Gaming day starts at (hour, 0–23)',
  sendProperty: 'Add the property',
  propertyAdded: (name: string) => `Property ${name} added.`,
  tables: 'Tables',
  property: 'Property',
  tablesCaption: 'The property’s tables and the limits in force',
  tableColumns: ['Table', 'Pit', 'Game', 'Currency', 'Minimum', 'Maximum', 'Status'],
  noTables: 'This property has no table yet.',
  status: { OPEN: 'open', CLOSED: 'closed' } as Record<string, string>,
  addTable: 'Add a table',
  code: 'Table code',
  pit: 'Pit',
  variant: 'Game',
  currency: 'Currency (ISO 4217)',
  minBet: (c: string) => `Minimum (${c})`,
  maxBet: (c: string) => `Maximum (${c})`,
  sendTable: 'Add the table',
  tableAdded: (code: string) => `Table ${code} added and open.`,
  limits: 'Change a table’s limits',
  limitsHint: 'From the table’s next coup; the limits before stay on record with the reason.',
  sendLimits: 'Change the limits',
  limitsChanged: (code: string) => `Limits of ${code} changed.`,
  openClose: 'Close or reopen a table',
  openCloseHint: 'A table’s shoe is closed first; a closed table takes no shoe and seats nobody until reopened.',
  close: 'Close the table',
  reopen: 'Reopen the table',
  closed: (code: string) => `${code} closed.`,
  reopened: (code: string) => `${code} reopened.`,
  badAmount: (c: string, d: number) => `Type the amount in ${c} in figures, with at most ${d} decimals (for example 1250${d ? '.' + '5'.padEnd(d, '0') : ''}).`,
  choose: '— choose —',
};

const zhHant: typeof en = {
  title: '系統管理',
  readAgain: '重新讀取',
  notLive: '開啟時、每次操作後及按「重新讀取」時讀取：其他管理員的操作須重新讀取才會顯示。',
  yes: '是',
  no: '否',
  roles: ROLE_NAMES['zh-Hant'],
  staff: '員工名冊',
  staffCaption: '名冊上每位員工及其現時角色',
  staffColumns: ['員工編號', '姓名', '角色', '在職'],
  noStaff: '名冊上尚無任何人。',
  propose: '提出更改員工紀錄',
  proposeHint: '填寫紀錄應有的內容：須另一位管理員批准後才生效。任何人不得提出更改自己的紀錄。',
  staffId: '員工編號',
  name: '姓名',
  rolesLegend: '角色',
  active: '在職（不勾選：其所有角色及金鑰即停止）',
  reason: '原因',
  sendProposal: '提出',
  proposed: (who: string) => `已提出更改 ${who} 的紀錄：待另一位管理員決定。`,
  pending: '待另一位管理員決定的更改',
  pendingCaption: '名冊的待決更改，最早的在前',
  pendingColumns: ['員工編號', '姓名', '角色', '在職', '原因', '提出時間'],
  noPending: '沒有待決的更改。',
  decide: '決定',
  change: '更改',
  note: '備註（拒絕時必填）',
  approve: '批准',
  reject: '拒絕',
  approved: '已批准。',
  rejected: '已拒絕。',
  keys: 'API 金鑰',
  keysCaption: '所有 API 金鑰，最新的在前（從不顯示金鑰本身）',
  keyColumns: ['名稱', '角色', '員工', '賭枱', '開頭', '已領取', '已見證', '已撤銷'],
  noKeys: '尚未建立任何金鑰。',
  mint: '建立金鑰',
  mintHint: '員工的金鑰須填其員工編號；賭枱終端或顯示屏的金鑰須選其賭枱。任何人不得為自己建立金鑰。',
  keyName: '使用者或用途',
  role: '角色',
  table: '賭枱',
  expires: '到期日（可留空）',
  sendMint: '建立',
  minted: (name: string) => `已為 ${name} 建立金鑰。請即交付：金鑰只顯示這一次。`,
  mintedKey: '金鑰',
  claimFlow: '持有人以此金鑰登入並領取（換成只有本人知道的新密碼）；之後另一位管理員在場見證，於下方確認領取。賭枱的金鑰毋須領取。',
  replayed: '此回覆是先前回覆的重複：金鑰不會再次顯示。如已遺失，請撤銷並另建一把。',
  witness: '見證領取',
  witnessHint: '只列出持有人已領取而尚未有人見證的金鑰。不得見證自己建立或持有的金鑰。',
  claimedKey: '已領取的金鑰',
  sendWitness: '見證領取',
  witnessed: '已見證領取：此金鑰只屬其本人。',
  noClaims: '沒有待見證的領取。',
  revoke: '撤銷金鑰',
  revokeHint: '賭枱的金鑰或非管理員的金鑰即時停止。管理員的金鑰須兩人：由您提出，另一位管理員批准。',
  liveKey: '金鑰',
  revokeNow: '立即撤銷',
  proposeRevocation: '提出撤銷',
  adminKey: '這是管理員的金鑰：須另一位管理員批准。',
  revoked: '已撤銷：下一個請求起即停止。',
  revocationProposed: '已提出撤銷：待另一位管理員決定。',
  revocations: '待另一位管理員決定的金鑰撤銷',
  revocationsCaption: '已提出的撤銷，最早的在前',
  revocationColumns: ['金鑰', '角色', '員工', '原因', '提出時間'],
  noRevocations: '沒有待決的撤銷。',
  revocation: '撤銷',
  properties: '娛樂場',
  propertiesCaption: '所有娛樂場',
  propertyColumns: ['名稱', '時區', '博彩日開始', '現金報告貨幣'],
  noProperties: '尚未設立娛樂場。',
  addProperty: '新增娛樂場',
  propertyName: '名稱',
  timeZone: '時區（IANA）',
  dayStart: '博彩日開始時間（時，0–23）',
  sendProperty: '新增娛樂場',
  propertyAdded: (name: string) => `已新增娛樂場 ${name}。`,
  tables: '賭枱',
  property: '娛樂場',
  tablesCaption: '該娛樂場的賭枱及現行限額',
  tableColumns: ['賭枱', '賭區', '遊戲', '貨幣', '最低', '最高', '狀態'],
  noTables: '此娛樂場尚無賭枱。',
  status: { OPEN: '開放', CLOSED: '已關閉' },
  addTable: '新增賭枱',
  code: '賭枱編號',
  pit: '賭區',
  variant: '遊戲',
  currency: '貨幣（ISO 4217）',
  minBet: (c: string) => `最低（${c}）`,
  maxBet: (c: string) => `最高（${c}）`,
  sendTable: '新增賭枱',
  tableAdded: (code: string) => `已新增賭枱 ${code}，並已開放。`,
  limits: '更改賭枱限額',
  limitsHint: '由該賭枱下一局起生效；之前的限額連同原因保留紀錄。',
  sendLimits: '更改限額',
  limitsChanged: (code: string) => `已更改 ${code} 的限額。`,
  openClose: '關閉或重開賭枱',
  openCloseHint: '須先關閉賭枱的牌靴；已關閉的賭枱在重開前不能開牌靴，也不能入座。',
  close: '關閉賭枱',
  reopen: '重開賭枱',
  closed: (code: string) => `已關閉 ${code}。`,
  reopened: (code: string) => `已重開 ${code}。`,
  badAmount: (c: string, d: number) => `請以數字輸入 ${c} 金額，最多 ${d} 位小數（例如 1250${d ? '.' + '5'.padEnd(d, '0') : ''}）。`,
  choose: '— 請選擇 —',
};

const zhHans: typeof en = {
  title: '系统管理',
  readAgain: '重新读取',
  notLive: '打开时、每次操作后及按“重新读取”时读取：其他管理员的操作须重新读取才会显示。',
  yes: '是',
  no: '否',
  roles: ROLE_NAMES['zh-Hans'],
  staff: '员工名册',
  staffCaption: '名册上每位员工及其现时角色',
  staffColumns: ['员工编号', '姓名', '角色', '在职'],
  noStaff: '名册上尚无任何人。',
  propose: '提出更改员工记录',
  proposeHint: '填写记录应有的内容：须另一位管理员批准后才生效。任何人不得提出更改自己的记录。',
  staffId: '员工编号',
  name: '姓名',
  rolesLegend: '角色',
  active: '在职（不勾选：其所有角色及密钥即停止）',
  reason: '原因',
  sendProposal: '提出',
  proposed: (who: string) => `已提出更改 ${who} 的记录：待另一位管理员决定。`,
  pending: '待另一位管理员决定的更改',
  pendingCaption: '名册的待决更改，最早的在前',
  pendingColumns: ['员工编号', '姓名', '角色', '在职', '原因', '提出时间'],
  noPending: '没有待决的更改。',
  decide: '决定',
  change: '更改',
  note: '备注（拒绝时必填）',
  approve: '批准',
  reject: '拒绝',
  approved: '已批准。',
  rejected: '已拒绝。',
  keys: 'API 密钥',
  keysCaption: '所有 API 密钥，最新的在前（从不显示密钥本身）',
  keyColumns: ['名称', '角色', '员工', '赌台', '开头', '已领取', '已见证', '已撤销'],
  noKeys: '尚未建立任何密钥。',
  mint: '建立密钥',
  mintHint: '员工的密钥须填其员工编号；赌台终端或显示屏的密钥须选其赌台。任何人不得为自己建立密钥。',
  keyName: '使用者或用途',
  role: '角色',
  table: '赌台',
  expires: '到期日（可留空）',
  sendMint: '建立',
  minted: (name: string) => `已为 ${name} 建立密钥。请即交付：密钥只显示这一次。`,
  mintedKey: '密钥',
  claimFlow: '持有人以此密钥登录并领取（换成只有本人知道的新密码）；之后另一位管理员在场见证，于下方确认领取。赌台的密钥无须领取。',
  replayed: '此回复是先前回复的重复：密钥不会再次显示。如已遗失，请撤销并另建一把。',
  witness: '见证领取',
  witnessHint: '只列出持有人已领取而尚未有人见证的密钥。不得见证自己建立或持有的密钥。',
  claimedKey: '已领取的密钥',
  sendWitness: '见证领取',
  witnessed: '已见证领取：此密钥只属其本人。',
  noClaims: '没有待见证的领取。',
  revoke: '撤销密钥',
  revokeHint: '赌台的密钥或非管理员的密钥即时停止。管理员的密钥须两人：由您提出，另一位管理员批准。',
  liveKey: '密钥',
  revokeNow: '立即撤销',
  proposeRevocation: '提出撤销',
  adminKey: '这是管理员的密钥：须另一位管理员批准。',
  revoked: '已撤销：下一个请求起即停止。',
  revocationProposed: '已提出撤销：待另一位管理员决定。',
  revocations: '待另一位管理员决定的密钥撤销',
  revocationsCaption: '已提出的撤销，最早的在前',
  revocationColumns: ['密钥', '角色', '员工', '原因', '提出时间'],
  noRevocations: '没有待决的撤销。',
  revocation: '撤销',
  properties: '娱乐场',
  propertiesCaption: '所有娱乐场',
  propertyColumns: ['名称', '时区', '博彩日开始', '现金报告货币'],
  noProperties: '尚未设立娱乐场。',
  addProperty: '新增娱乐场',
  propertyName: '名称',
  timeZone: '时区（IANA）',
  dayStart: '博彩日开始时间（时，0–23）',
  sendProperty: '新增娱乐场',
  propertyAdded: (name: string) => `已新增娱乐场 ${name}。`,
  tables: '赌台',
  property: '娱乐场',
  tablesCaption: '该娱乐场的赌台及现行限额',
  tableColumns: ['赌台', '赌区', '游戏', '货币', '最低', '最高', '状态'],
  noTables: '此娱乐场尚无赌台。',
  status: { OPEN: '开放', CLOSED: '已关闭' },
  addTable: '新增赌台',
  code: '赌台编号',
  pit: '赌区',
  variant: '游戏',
  currency: '货币（ISO 4217）',
  minBet: (c: string) => `最低（${c}）`,
  maxBet: (c: string) => `最高（${c}）`,
  sendTable: '新增赌台',
  tableAdded: (code: string) => `已新增赌台 ${code}，并已开放。`,
  limits: '更改赌台限额',
  limitsHint: '由该赌台下一局起生效；之前的限额连同原因保留记录。',
  sendLimits: '更改限额',
  limitsChanged: (code: string) => `已更改 ${code} 的限额。`,
  openClose: '关闭或重开赌台',
  openCloseHint: '须先关闭赌台的牌靴；已关闭的赌台在重开前不能开牌靴，也不能入座。',
  close: '关闭赌台',
  reopen: '重开赌台',
  closed: (code: string) => `已关闭 ${code}。`,
  reopened: (code: string) => `已重开 ${code}。`,
  badAmount: (c: string, d: number) => `请以数字输入 ${c} 金额，最多 ${d} 位小数（例如 1250${d ? '.' + '5'.padEnd(d, '0') : ''}）。`,
  choose: '— 请选择 —',
};

const ADMIN: Words<typeof en> = { en, 'zh-Hant': zhHant, 'zh-Hans': zhHans };

type StaffMember = Schemas['StaffMemberDto'];
type StaffChange = Schemas['StaffChangeDto'];
type ApiKey = Schemas['ApiKeyDto'];
type Created = Schemas['CreatedApiKeyDto'];
type Revocation = Schemas['KeyRevocationDto'];
type Property = Schemas['PropertyDto'];
type Table = Schemas['TableDto'];

const PERSON_ROLES = ['SUPERVISOR', 'FINANCE', 'AUDITOR', 'ADMIN', 'SURVEILLANCE', 'HOST', 'COMPLIANCE', 'CASHIER', 'CASINO_MANAGER'] as const;
const KEY_ROLES = [...PERSON_ROLES, 'TERMINAL', 'DISPLAY', 'DEVICE'] as const;
const TABLE_ROLES: readonly string[] = ['TERMINAL', 'DISPLAY', 'DEVICE'];
const VARIANTS = ['COMMISSION', 'SUPER_6', 'EZ', 'CHEMIN_DE_FER', 'BANQUE'] as const;
/** A select is as wide as its longest choice: a name without a space must not push the page sideways. */
const NARROW = { maxWidth: '22rem', textOverflow: 'ellipsis' };
/** A checkbox beside its words (an act's labels otherwise stack their words over their field). */
const BESIDE = { flexDirection: 'row' as const, alignItems: 'center', minHeight: '44px' };

/** Reads only what the role may read: a part it may not read is an empty list, never a refused request. */
const readIf = <T,>(allowed: boolean, path: string, query?: Record<string, string>): Promise<T[]> => (allowed ? get<T[]>(path, query) : Promise.resolve([]));

export function Admin() {
  const t = useT(ADMIN);
  const w = useT(WORDS);
  const caller = useCaller();
  const [version, setVersion] = useState(0);
  const again = () => setVersion((v) => v + 1);
  const may = (op: string) => mayCall(caller, op);
  const staff = useLoad(() => readIf<StaffMember>(may('listStaff'), '/v1/staff'), [version]);
  const changes = useLoad(() => readIf<StaffChange>(may('listStaffChanges'), '/v1/staff/changes', { status: 'PENDING' }), [version]);
  const keys = useLoad(() => readIf<ApiKey>(may('listApiKeys'), '/v1/api-keys'), [version]);
  const revocations = useLoad(() => readIf<Revocation>(may('listApiKeyRevocations'), '/v1/api-keys/revocations', { status: 'PENDING' }), [version]);
  const properties = useLoad(() => readIf<Property>(may('listProperties'), '/v1/properties'), [version]);
  const tables = useLoad(() => readIf<Table>(may('listTables'), '/v1/tables'), [version]);
  const loading = [staff, changes, keys, revocations, properties, tables].some((l) => !l.data && !l.error);
  const zoneOf = zonesOf(properties.data, tables.data);
  return (
    <main class="admin">
      <div class="title">
        <h1>{t.title}</h1>
        <button type="button" onClick={again}>
          {t.readAgain}
        </button>
      </div>
      <p class="hint">{t.notLive}</p>
      {loading && <p role="status">{w.loading}</p>}
      {may('listStaff') && (
        <StaffDesk staff={staff.data} changes={changes.data} problem={staff.error ?? changes.error} keyId={caller.keyId} zoneOf={zoneOf} onDone={again} />
      )}
      {may('listApiKeys') && (
        <KeyDesk
          keys={keys.data}
          revocations={revocations.data}
          staff={staff.data ?? []}
          tables={tables.data ?? []}
          zoneOf={zoneOf}
          problem={keys.error ?? revocations.error}
          onDone={again}
        />
      )}
      {may('listProperties') && <PropertyDesk properties={properties.data} tables={tables.data} problem={properties.error ?? tables.error} onDone={again} />}
    </main>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section aria-labelledby={id} data-testid={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * A choice with its visible label, named by the label's words alone (a label around a select would
 * also read out every option as the select's name).
 */
function Pick({
  label,
  name,
  value,
  onPick,
  required,
  narrow,
  children,
}: {
  label: string;
  name: string;
  value: string;
  onPick: (value: string) => void;
  required?: boolean;
  narrow?: boolean;
  children: ComponentChildren;
}) {
  const id = useId();
  return (
    <label>
      <span id={id}>{label}</span>
      <select
        aria-labelledby={id}
        name={name}
        value={value}
        onChange={(e) => onPick(e.currentTarget.value)}
        required={required}
        style={narrow ? NARROW : undefined}
      >
        {children}
      </select>
    </label>
  );
}

/** What an act's confirmation says, in the language the screen is shown in when it is read (not when it was done). */
type Said = (w: typeof en) => string;
function useSaid(): [Said | null, (s: Said | null) => void] {
  const [said, set] = useState<{ say: Said } | null>(null);
  return [said?.say ?? null, (s) => set(s ? { say: s } : null)];
}

/** An act's form: its heading, a hint, its fields and buttons, then its refusal or its confirmation. */
function ActForm({
  id,
  title,
  hint,
  onSubmit,
  children,
}: {
  id: string;
  title: string;
  hint?: string;
  onSubmit: (e: SubmitEvent) => void;
  children: ComponentChildren;
}) {
  return (
    <>
      <h3 id={`${id}-title`}>{title}</h3>
      {hint && <p class="hint">{hint}</p>}
      <form class="act" data-testid={id} aria-labelledby={`${id}-title`} onSubmit={onSubmit}>
        {children}
      </form>
    </>
  );
}

const when = (f: ReturnType<typeof useFormat>, iso: string | null | undefined, timeZone: string | undefined) => f.dateTime(iso, timeZone);

/** A moment's time zone, by the table it belongs to (a terminal's key), if any. */
type ZoneOf = (tableId?: string | null) => string | undefined;

/**
 * The time zone a moment is shown in (docs/glossary.md, Dates and times): a table's key in its
 * property's; a moment of no table (a staff change, another key) in the zone every property shares;
 * only where properties differ, the browser's.
 */
function zonesOf(properties: Property[] | null, tables: Table[] | null): ZoneOf {
  const zone = new Map((properties ?? []).map((p) => [p.id, p.timeZone]));
  const all = [...new Set(zone.values())];
  const every = all.length === 1 ? all[0] : undefined;
  return (tableId) => {
    const table = tableId ? tables?.find((x) => x.id === tableId) : undefined;
    return (table && zone.get(table.propertyId)) ?? every;
  };
}

// —— Staff register ——————————————————————————————————————————————————————————————

function StaffDesk({
  staff,
  changes,
  problem,
  keyId,
  zoneOf,
  onDone,
}: {
  staff: StaffMember[] | null;
  changes: StaffChange[] | null;
  problem: { code: string; message: string } | null;
  keyId: string;
  zoneOf: ZoneOf;
  onDone: () => void;
}) {
  const t = useT(ADMIN);
  const f = useFormat();
  const caller = useCaller();
  const roles = (rs: readonly string[]) => rs.map((r) => t.roles[r] ?? r).join(', ');
  return (
    <Section id="admin-staff" title={t.staff}>
      <ErrorNote problem={problem} />
      {staff && staff.length === 0 && <p>{t.noStaff}</p>}
      {staff && staff.length > 0 && (
        <Scroll label={t.staffCaption}>
          <table class="figures" data-testid="staff-register">
            <caption class="sr-only">{t.staffCaption}</caption>
            <Head columns={t.staffColumns} />
            <tbody>
              {staff.map((p) => (
                <tr key={p.staffId} data-staff={p.staffId}>
                  <th scope="row">{p.staffId}</th>
                  <td>{p.name}</td>
                  <td data-field="roles" data-value={p.roles.join(',')}>
                    {roles(p.roles)}
                  </td>
                  <td data-field="active" data-value={String(p.active)}>
                    {p.active ? t.yes : t.no}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {mayCall(caller, 'proposeStaffChange') && <ProposeStaff staff={staff ?? []} onDone={onDone} />}
      {changes && (
        <>
          <h3 id="staff-pending">{t.pending}</h3>
          {changes.length === 0 ? (
            <p data-testid="staff-pending-none">{t.noPending}</p>
          ) : (
            <Scroll label={t.pendingCaption}>
              <table class="figures" data-testid="staff-pending">
                <caption class="sr-only">{t.pendingCaption}</caption>
                <Head columns={t.pendingColumns} />
                <tbody>
                  {changes.map((c) => (
                    <tr key={c.id} data-change={c.id} data-mine={c.proposedByKeyId === keyId}>
                      <th scope="row">{c.staffId}</th>
                      <td>{c.name}</td>
                      <td data-field="roles" data-value={c.roles.join(',')}>
                        {roles(c.roles)}
                      </td>
                      <td>{c.active ? t.yes : t.no}</td>
                      <td class="wrap">{c.reason}</td>
                      <td>{when(f, c.proposedAt, zoneOf())}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
          {mayCall(caller, 'approveStaffChange') && mayCall(caller, 'rejectStaffChange') && (
            <Decide
              id="staff-decide"
              label={t.change}
              items={changes.map((c) => ({ id: c.id, label: `${c.staffId} · ${c.name} · ${roles(c.roles)}` }))}
              path={(id, d) => `/v1/staff/changes/${id}/${d}`}
              onDone={onDone}
            />
          )}
        </>
      )}
    </Section>
  );
}

function ProposeStaff({ staff, onDone }: { staff: StaffMember[]; onDone: () => void }) {
  const t = useT(ADMIN);
  const act = useAct();
  const [staffId, setStaffId] = useState('');
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<string[]>([]);
  const [active, setActive] = useState(true);
  const [reason, setReason] = useState('');
  const [done, setDone] = useSaid();
  // A person already on the register: their record as it stands, to change from.
  const pick = (id: string) => {
    setStaffId(id);
    const p = staff.find((s) => s.staffId === id.trim());
    if (p) {
      setName(p.name);
      setRoles([...p.roles]);
      setActive(p.active);
    }
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(null);
    const answer = await act.send<StaffChange>('/v1/staff', { staffId: staffId.trim(), name: name.trim(), roles, active, reason });
    if (answer) {
      setDone((w) => w.proposed(answer.staffId));
      setReason('');
      onDone();
    }
  };
  return (
    <ActForm id="staff-propose" title={t.propose} hint={t.proposeHint} onSubmit={(e) => void submit(e)}>
      <label>
        {t.staffId}
        <input
          name="staffId"
          value={staffId}
          onInput={(e) => pick(e.currentTarget.value)}
          required
          maxLength={64}
          pattern="[A-Za-z0-9._\-]+"
          autoComplete="off"
        />
      </label>
      <label>
        {t.name}
        <input name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} autoComplete="off" />
      </label>
      <fieldset>
        <legend>{t.rolesLegend}</legend>
        {PERSON_ROLES.map((r) => (
          <label key={r} class="inline" style={BESIDE}>
            <input
              type="checkbox"
              name="roles"
              value={r}
              checked={roles.includes(r)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setRoles((rs) => (on ? [...rs.filter((x) => x !== r), r] : rs.filter((x) => x !== r)));
              }}
            />
            {t.roles[r]}
          </label>
        ))}
      </fieldset>
      <label class="inline" style={BESIDE}>
        <input type="checkbox" name="active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
        {t.active}
      </label>
      <label>
        {t.reason}
        <input name="reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} required minLength={3} maxLength={500} autoComplete="off" />
      </label>
      <button type="submit" disabled={act.busy}>
        {t.sendProposal}
      </button>
      <ActProblem problem={act.problem} />
      {done && <Done testId="staff-proposed">{done(t)}</Done>}
    </ActForm>
  );
}

/** Approve or reject a two-person proposal (a staff change, a key revocation): another administrator than who proposed it. */
function Decide({
  id,
  label,
  items,
  path,
  onDone,
}: {
  id: string;
  label: string;
  items: { id: string; label: string }[];
  path: (id: string, decision: 'approve' | 'reject') => string;
  onDone: () => void;
}) {
  const t = useT(ADMIN);
  const act = useAct();
  const [chosen, setChosen] = useState('');
  const [note, setNote] = useState('');
  const [done, setDone] = useSaid();
  const target = items.some((i) => i.id === chosen) ? chosen : (items[0]?.id ?? '');
  // Kept while nothing is left to decide, so the last decision's confirmation stays in view.
  if (items.length === 0) return done ? <Done testId={`${id}-done`}>{done(t)}</Done> : null;
  const decide = async (decision: 'approve' | 'reject') => {
    setDone(null);
    const answer = await act.send<unknown>(path(target, decision), note.trim() ? { note: note.trim() } : {});
    if (answer) {
      setDone((w) => (decision === 'approve' ? w.approved : w.rejected));
      setNote('');
      onDone();
    }
  };
  return (
    <ActForm
      id={id}
      title={t.decide}
      onSubmit={(e) => {
        e.preventDefault();
        // Enter in a field approves; the reject button says which it is.
        const by = (e.submitter as HTMLButtonElement | null)?.value === 'reject' ? 'reject' : 'approve';
        void decide(by);
      }}
    >
      <Pick label={label} name="item" value={target} onPick={setChosen} narrow>
        {items.map((i) => (
          <option key={i.id} value={i.id}>
            {i.label}
          </option>
        ))}
      </Pick>
      <label>
        {t.note}
        <input name="note" value={note} onInput={(e) => setNote(e.currentTarget.value)} maxLength={500} autoComplete="off" />
      </label>
      <button type="submit" value="approve" disabled={act.busy}>
        {t.approve}
      </button>
      <button type="submit" value="reject" disabled={act.busy}>
        {t.reject}
      </button>
      <ActProblem problem={act.problem} />
      {done && <Done testId={`${id}-done`}>{done(t)}</Done>}
    </ActForm>
  );
}

// —— Keys ——————————————————————————————————————————————————————————————————————————

function KeyDesk({
  keys,
  revocations,
  staff,
  tables,
  zoneOf,
  problem,
  onDone,
}: {
  keys: ApiKey[] | null;
  revocations: Revocation[] | null;
  staff: StaffMember[];
  tables: Table[];
  zoneOf: ZoneOf;
  problem: { code: string; message: string } | null;
  onDone: () => void;
}) {
  const t = useT(ADMIN);
  const f = useFormat();
  const caller = useCaller();
  const tableCode = (id: string | null) => tables.find((x) => x.id === id)?.code ?? (id ? id.slice(0, 8) : '—');
  const newestFirst = [...(keys ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const keyName = (id: string) => keys?.find((k) => k.id === id)?.name ?? id.slice(0, 8);
  return (
    <Section id="admin-keys" title={t.keys}>
      <ErrorNote problem={problem} />
      {keys && keys.length === 0 && <p>{t.noKeys}</p>}
      {keys && keys.length > 0 && (
        <Scroll label={t.keysCaption}>
          <table class="figures" data-testid="keys">
            <caption class="sr-only">{t.keysCaption}</caption>
            <Head columns={t.keyColumns} />
            <tbody>
              {newestFirst.map((k) => (
                <tr key={k.id} data-key={k.id}>
                  <th scope="row" class="wrap">
                    {k.name}
                  </th>
                  <td data-field="role" data-value={k.role}>
                    {t.roles[k.role] ?? k.role}
                  </td>
                  <td>{k.staffId ?? '—'}</td>
                  <td>{k.tableId ? tableCode(k.tableId) : '—'}</td>
                  <td>
                    <code>{k.keyPrefix}…</code>
                  </td>
                  <td data-field="claimedAt">{when(f, k.claimedAt, zoneOf(k.tableId))}</td>
                  <td data-field="claimWitnessedAt">{when(f, k.claimWitnessedAt, zoneOf(k.tableId))}</td>
                  <td data-field="revokedAt">{when(f, k.revokedAt, zoneOf(k.tableId))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {mayCall(caller, 'createApiKey') && <MintKey tables={tables} onDone={onDone} />}
      {keys && mayCall(caller, 'witnessApiKeyClaim') && <WitnessClaim keys={keys} onDone={onDone} />}
      {keys && mayCall(caller, 'revokeApiKey') && mayCall(caller, 'proposeApiKeyRevocation') && (
        <RevokeKey keys={keys} staff={staff} tables={tables} onDone={onDone} />
      )}
      {revocations && (
        <>
          <h3 id="key-revocations">{t.revocations}</h3>
          {revocations.length === 0 ? (
            <p data-testid="revocations-none">{t.noRevocations}</p>
          ) : (
            <Scroll label={t.revocationsCaption}>
              <table class="figures" data-testid="revocations">
                <caption class="sr-only">{t.revocationsCaption}</caption>
                <Head columns={t.revocationColumns} />
                <tbody>
                  {revocations.map((r) => (
                    <tr key={r.id} data-revocation={r.id}>
                      <th scope="row" class="wrap">
                        {keyName(r.keyId)}
                      </th>
                      <td>{t.roles[r.keyRole] ?? r.keyRole}</td>
                      <td>{r.keyStaffId ?? '—'}</td>
                      <td class="wrap">{r.reason}</td>
                      <td>{when(f, r.proposedAt, zoneOf(keys?.find((k) => k.id === r.keyId)?.tableId))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
          {mayCall(caller, 'approveApiKeyRevocation') && mayCall(caller, 'rejectApiKeyRevocation') && (
            <Decide
              id="revocation-decide"
              label={t.revocation}
              items={revocations.map((r) => ({
                id: r.id,
                label: `${keyName(r.keyId)} · ${t.roles[r.keyRole] ?? r.keyRole}${r.keyStaffId ? ` · ${r.keyStaffId}` : ''}`,
              }))}
              path={(id, d) => `/v1/api-keys/revocations/${id}/${d}`}
              onDone={onDone}
            />
          )}
        </>
      )}
    </Section>
  );
}

function MintKey({ tables, onDone }: { tables: Table[]; onDone: () => void }) {
  const t = useT(ADMIN);
  const act = useAct();
  const [name, setName] = useState('');
  const [role, setRole] = useState<string>('SUPERVISOR');
  const [staffId, setStaffId] = useState('');
  const [tableId, setTableId] = useState('');
  const [expires, setExpires] = useState('');
  const [minted, setMinted] = useState<Created | null>(null);
  const forTable = TABLE_ROLES.includes(role);
  const table = tables.some((x) => x.id === tableId) ? tableId : '';
  const submit = async (e: Event) => {
    e.preventDefault();
    setMinted(null);
    const body = {
      name: name.trim(),
      role,
      ...(forTable ? { tableId: table } : { staffId: staffId.trim() }),
      ...(expires ? { expiresAt: expires } : {}),
    };
    const answer = await act.send<Created>('/v1/api-keys', body);
    // The key is shown here, once: the list read again shows the key's record, never the key.
    if (answer) {
      setMinted(answer);
      onDone();
    }
  };
  return (
    <ActForm id="key-mint" title={t.mint} hint={t.mintHint} onSubmit={(e) => void submit(e)}>
      <label>
        {t.keyName}
        <input name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={100} autoComplete="off" />
      </label>
      <Pick label={t.role} name="role" value={role} onPick={setRole}>
        {KEY_ROLES.map((r) => (
          <option key={r} value={r}>
            {t.roles[r]}
          </option>
        ))}
      </Pick>
      {forTable ? (
        <Pick label={t.table} name="tableId" value={table} onPick={setTableId} required narrow>
          <option value="">{t.choose}</option>
          {tables.map((x) => (
            <option key={x.id} value={x.id}>
              {x.code}
            </option>
          ))}
        </Pick>
      ) : (
        <label>
          {t.staffId}
          <input name="staffId" value={staffId} onInput={(e) => setStaffId(e.currentTarget.value)} required maxLength={64} autoComplete="off" />
        </label>
      )}
      <label>
        {t.expires}
        <input name="expiresAt" type="date" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={act.busy}>
        {t.sendMint}
      </button>
      <ActProblem problem={act.problem} />
      {minted && (
        <div role="status" class="done" data-testid="key-minted" data-key-id={minted.id}>
          {minted.key ? (
            <>
              <p>{t.minted(minted.apiKey.name)}</p>
              <p>
                {t.mintedKey}: <code data-testid="minted-key">{minted.key}</code>
              </p>
              {!TABLE_ROLES.includes(minted.apiKey.role) && <p class="hint">{t.claimFlow}</p>}
            </>
          ) : (
            <p>{t.replayed}</p>
          )}
        </div>
      )}
    </ActForm>
  );
}

function WitnessClaim({ keys, onDone }: { keys: ApiKey[]; onDone: () => void }) {
  const t = useT(ADMIN);
  const act = useAct();
  const [chosen, setChosen] = useState('');
  const [done, setDone] = useState(false);
  const claimed = keys.filter((k) => k.claimedAt && !k.claimWitnessedAt && !k.revokedAt);
  const target = claimed.some((k) => k.id === chosen) ? chosen : (claimed[0]?.id ?? '');
  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(false);
    if (await act.send<ApiKey>(`/v1/api-keys/${target}/witness`, {})) {
      setDone(true);
      onDone();
    }
  };
  return (
    <ActForm id="key-witness" title={t.witness} hint={t.witnessHint} onSubmit={(e) => void submit(e)}>
      {claimed.length === 0 ? (
        <p data-testid="claims-none">{t.noClaims}</p>
      ) : (
        <>
          <Pick label={t.claimedKey} name="key" value={target} onPick={setChosen} narrow>
            {claimed.map((k) => (
              <option key={k.id} value={k.id}>
                {`${k.name} · ${k.staffId ?? ''} · ${k.keyPrefix}…`}
              </option>
            ))}
          </Pick>
          <button type="submit" disabled={act.busy}>
            {t.sendWitness}
          </button>
        </>
      )}
      <ActProblem problem={act.problem} />
      {done && <Done testId="key-witnessed">{t.witnessed}</Done>}
    </ActForm>
  );
}

function RevokeKey({ keys, staff, tables, onDone }: { keys: ApiKey[]; staff: StaffMember[]; tables: Table[]; onDone: () => void }) {
  const t = useT(ADMIN);
  const act = useAct();
  const [chosen, setChosen] = useState('');
  const [reason, setReason] = useState('');
  const [done, setDone] = useSaid();
  const live = keys.filter((k) => !k.revokedAt);
  const target = live.find((k) => k.id === chosen) ?? null;
  // An administrator's key: of the ADMIN role, or any key of a person who is an administrator (the service's rule).
  const administrators = new Set(staff.filter((p) => p.active && p.roles.includes('ADMIN')).map((p) => p.staffId));
  const twoPersons = !!target && (target.role === 'ADMIN' || (!!target.staffId && administrators.has(target.staffId)));
  const label = (k: ApiKey) =>
    `${k.name} · ${t.roles[k.role] ?? k.role}${k.staffId ? ` · ${k.staffId}` : ''}${k.tableId ? ` · ${tables.find((x) => x.id === k.tableId)?.code ?? ''}` : ''}`;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!target) return;
    setDone(null);
    const answer = twoPersons
      ? await act.send<Revocation>(`/v1/api-keys/${target.id}/revocations`, { reason: reason.trim() })
      : await act.send<ApiKey>(`/v1/api-keys/${target.id}/revoke`, {});
    if (answer) {
      setDone((w) => (twoPersons ? w.revocationProposed : w.revoked));
      setChosen('');
      setReason('');
      onDone();
    }
  };
  return (
    <ActForm id="key-revoke" title={t.revoke} hint={t.revokeHint} onSubmit={(e) => void submit(e)}>
      <Pick label={t.liveKey} name="key" value={target?.id ?? ''} onPick={setChosen} required narrow>
        <option value="">{t.choose}</option>
        {live.map((k) => (
          <option key={k.id} value={k.id}>
            {label(k)}
          </option>
        ))}
      </Pick>
      {twoPersons && (
        <label>
          {t.reason}
          <input name="reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} required minLength={3} maxLength={500} autoComplete="off" />
        </label>
      )}
      <button type="submit" disabled={act.busy || !target}>
        {twoPersons ? t.proposeRevocation : t.revokeNow}
      </button>
      {twoPersons && <p class="hint">{t.adminKey}</p>}
      <ActProblem problem={act.problem} />
      {done && <Done testId="key-revoked">{done(t)}</Done>}
    </ActForm>
  );
}

// —— Properties and tables —————————————————————————————————————————————————————————

function PropertyDesk({
  properties,
  tables,
  problem,
  onDone,
}: {
  properties: Property[] | null;
  tables: Table[] | null;
  problem: { code: string; message: string } | null;
  onDone: () => void;
}) {
  const t = useT(ADMIN);
  const w = useT(WORDS);
  const caller = useCaller();
  const [chosen, setChosen] = useState('');
  const property = properties?.find((p) => p.id === chosen) ?? properties?.[0] ?? null;
  const own = (tables ?? []).filter((x) => x.propertyId === property?.id);
  return (
    <>
      <Section id="admin-properties" title={t.properties}>
        <ErrorNote problem={problem} />
        {properties && properties.length === 0 && <p>{t.noProperties}</p>}
        {properties && properties.length > 0 && (
          <Scroll label={t.propertiesCaption}>
            <table class="figures" data-testid="properties">
              <caption class="sr-only">{t.propertiesCaption}</caption>
              <Head columns={t.propertyColumns} />
              <tbody>
                {properties.map((p) => (
                  <tr key={p.id} data-property={p.id}>
                    <th scope="row" class="wrap">
                      {p.name}
                    </th>
                    <td>{p.timeZone}</td>
                    <td data-field="gamingDayStartHour" data-value={String(p.gamingDayStartHour)}>
                      {String(p.gamingDayStartHour).padStart(2, '0')}:00
                    </td>
                    <td>{p.cashCurrency}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
        {mayCall(caller, 'createProperty') && (
          <AddProperty
            onDone={(p) => {
              setChosen(p.id);
              onDone();
            }}
          />
        )}
      </Section>
      {properties && properties.length > 0 && tables && property && (
        <Section id="admin-tables" title={t.tables}>
          <form class="act" onSubmit={(e) => e.preventDefault()}>
            <Pick label={t.property} name="property" value={property.id} onPick={setChosen} narrow>
              {properties.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </Pick>
          </form>
          {own.length === 0 ? (
            <p data-testid="tables-none">{t.noTables}</p>
          ) : (
            <Scroll label={t.tablesCaption}>
              <table class="figures" data-testid="tables">
                <caption class="sr-only">{t.tablesCaption}</caption>
                <Head columns={t.tableColumns} />
                <tbody>
                  {own.map((x) => (
                    <tr key={x.id} data-table={x.id}>
                      <th scope="row">{x.code}</th>
                      <td>{x.pit}</td>
                      <td>{w.variants[x.variant] ?? x.variant}</td>
                      <td>{x.currency}</td>
                      <Money field="minBet" v={x.minBet} currency={x.currency} />
                      <Money field="maxBet" v={x.maxBet} currency={x.currency} />
                      <td data-field="status" data-value={x.status}>
                        {t.status[x.status] ?? x.status}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )}
          {mayCall(caller, 'createTable') && <AddTable key={property.id} property={property} onDone={onDone} />}
          {own.length > 0 && mayCall(caller, 'changeTableLimits') && <ChangeLimits key={`l${property.id}`} tables={own} onDone={onDone} />}
          {own.length > 0 && mayCall(caller, 'closeTable') && mayCall(caller, 'reopenTable') && (
            <OpenClose key={`o${property.id}`} tables={own} onDone={onDone} />
          )}
        </Section>
      )}
    </>
  );
}

function AddProperty({ onDone }: { onDone: (p: Property) => void }) {
  const t = useT(ADMIN);
  const act = useAct();
  const [name, setName] = useState('');
  const [timeZone, setTimeZone] = useState('Asia/Macau');
  const [hour, setHour] = useState('6');
  const [done, setDone] = useSaid();
  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(null);
    const answer = await act.send<Property>('/v1/properties', { name: name.trim(), timeZone: timeZone.trim(), gamingDayStartHour: Number(hour) });
    if (answer) {
      setDone((w) => w.propertyAdded(answer.name));
      setName('');
      onDone(answer);
    }
  };
  return (
    <ActForm id="property-add" title={t.addProperty} onSubmit={(e) => void submit(e)}>
      <label>
        {t.propertyName}
        <input name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={100} autoComplete="off" />
      </label>
      <label>
        {t.timeZone}
        <input name="timeZone" value={timeZone} onInput={(e) => setTimeZone(e.currentTarget.value)} required maxLength={64} autoComplete="off" />
      </label>
      <label>
        {t.dayStart}
        <input name="gamingDayStartHour" type="number" min={0} max={23} step={1} value={hour} onInput={(e) => setHour(e.currentTarget.value)} required />
      </label>
      <button type="submit" disabled={act.busy}>
        {t.sendProperty}
      </button>
      <ActProblem problem={act.problem} />
      {done && <Done testId="property-added">{done(t)}</Done>}
    </ActForm>
  );
}

/** Major units typed by a person as the API's integer minor units, exactly; null with the words to say why not. */
function useAmounts() {
  const t = useT(ADMIN);
  const [bad, setBad] = useState<string | null>(null); // the currency of an amount that is not one
  const read = (texts: string[], currency: string): number[] | null => {
    const out: number[] = [];
    for (const text of texts) {
      const minor = minorOf(text, currency);
      // The API takes amounts up to 10^12 minor units: a JSON number is exact that far.
      if (minor === null || minor < 0n || minor > BigInt(Number.MAX_SAFE_INTEGER)) {
        setBad(currency);
        return null;
      }
      out.push(Number(minor));
    }
    setBad(null);
    return out;
  };
  const note = bad && (
    <p role="alert" class="error" data-testid="bad-amount">
      {t.badAmount(bad, exponentOf(bad))}
    </p>
  );
  return { read, note };
}

function AmountInput({ name, label, value, set }: { name: string; label: string; value: string; set: (v: string) => void }) {
  return (
    <label>
      {label}
      <input name={name} inputMode="decimal" value={value} onInput={(e) => set(e.currentTarget.value)} required autoComplete="off" />
    </label>
  );
}

function AddTable({ property, onDone }: { property: Property; onDone: () => void }) {
  const t = useT(ADMIN);
  const w = useT(WORDS);
  const act = useAct();
  const amounts = useAmounts();
  const [code, setCode] = useState('');
  const [pit, setPit] = useState('');
  const [variant, setVariant] = useState<string>('COMMISSION');
  const [currency, setCurrency] = useState('HKD');
  const [min, setMin] = useState('');
  const [max, setMax] = useState('');
  const [done, setDone] = useSaid();
  const cur = currency.trim().toUpperCase();
  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(null);
    const limits = amounts.read([min, max], cur);
    if (!limits) return;
    const answer = await act.send<Table>('/v1/tables', {
      propertyId: property.id,
      code: code.trim(),
      ...(pit.trim() ? { pit: pit.trim() } : {}),
      variant,
      currency: cur,
      minBet: limits[0],
      maxBet: limits[1],
    });
    if (answer) {
      setDone((w) => w.tableAdded(answer.code));
      setCode('');
      onDone();
    }
  };
  return (
    <ActForm id="table-add" title={t.addTable} onSubmit={(e) => void submit(e)}>
      <label>
        {t.code}
        <input
          name="code"
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
          required
          maxLength={20}
          pattern="[A-Za-z0-9][A-Za-z0-9_\-]*"
          autoComplete="off"
        />
      </label>
      <label>
        {t.pit}
        <input name="pit" value={pit} onInput={(e) => setPit(e.currentTarget.value)} maxLength={40} autoComplete="off" />
      </label>
      <Pick label={t.variant} name="variant" value={variant} onPick={setVariant}>
        {VARIANTS.map((v) => (
          <option key={v} value={v}>
            {w.variants[v]}
          </option>
        ))}
      </Pick>
      <label>
        {t.currency}
        <input
          name="currency"
          value={currency}
          onInput={(e) => setCurrency(e.currentTarget.value)}
          required
          pattern="[A-Za-z]{3}"
          maxLength={3}
          size={4}
          autoComplete="off"
        />
      </label>
      <AmountInput name="minBet" label={t.minBet(cur)} value={min} set={setMin} />
      <AmountInput name="maxBet" label={t.maxBet(cur)} value={max} set={setMax} />
      <button type="submit" disabled={act.busy}>
        {t.sendTable}
      </button>
      {amounts.note}
      <ActProblem problem={act.problem} />
      {done && <Done testId="table-added">{done(t)}</Done>}
    </ActForm>
  );
}

function ChangeLimits({ tables, onDone }: { tables: Table[]; onDone: () => void }) {
  const t = useT(ADMIN);
  const act = useAct();
  const amounts = useAmounts();
  const [chosen, setChosen] = useState('');
  const [min, setMin] = useState('');
  const [max, setMax] = useState('');
  const [reason, setReason] = useState('');
  const [done, setDone] = useSaid();
  const table = tables.find((x) => x.id === chosen) ?? tables[0];
  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(null);
    const limits = amounts.read([min, max], table.currency);
    if (!limits) return;
    const answer = await act.send<unknown>(`/v1/tables/${table.id}/limits`, { minBet: limits[0], maxBet: limits[1], reason: reason.trim() });
    if (answer) {
      setDone((w) => w.limitsChanged(table.code));
      setReason('');
      onDone();
    }
  };
  return (
    <ActForm id="table-limits" title={t.limits} hint={t.limitsHint} onSubmit={(e) => void submit(e)}>
      <Pick label={t.table} name="table" value={table.id} onPick={setChosen} narrow>
        {tables.map((x) => (
          <option key={x.id} value={x.id}>
            {x.code}
          </option>
        ))}
      </Pick>
      <AmountInput name="minBet" label={t.minBet(table.currency)} value={min} set={setMin} />
      <AmountInput name="maxBet" label={t.maxBet(table.currency)} value={max} set={setMax} />
      <label>
        {t.reason}
        <input name="reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} required minLength={3} maxLength={500} autoComplete="off" />
      </label>
      <button type="submit" disabled={act.busy}>
        {t.sendLimits}
      </button>
      {amounts.note}
      <ActProblem problem={act.problem} />
      {done && <Done testId="limits-changed">{done(t)}</Done>}
    </ActForm>
  );
}

function OpenClose({ tables, onDone }: { tables: Table[]; onDone: () => void }) {
  const t = useT(ADMIN);
  const act = useAct();
  const [chosen, setChosen] = useState('');
  const [done, setDone] = useSaid();
  const table = tables.find((x) => x.id === chosen) ?? tables[0];
  const closing = table.status === 'OPEN';
  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(null);
    const answer = await act.send<Table>(`/v1/tables/${table.id}/${closing ? 'close' : 'reopen'}`, {});
    if (answer) {
      setDone((w) => (closing ? w.closed(answer.code) : w.reopened(answer.code)));
      onDone();
    }
  };
  return (
    <ActForm id="table-open-close" title={t.openClose} hint={t.openCloseHint} onSubmit={(e) => void submit(e)}>
      <Pick label={t.table} name="table" value={table.id} onPick={setChosen} narrow>
        {tables.map((x) => (
          <option key={x.id} value={x.id}>
            {`${x.code} (${t.status[x.status] ?? x.status})`}
          </option>
        ))}
      </Pick>
      <button type="submit" disabled={act.busy}>
        {closing ? t.close : t.reopen}
      </button>
      <ActProblem problem={act.problem} />
      {done && <Done testId="table-open-close-done">{done(t)}</Done>}
    </ActForm>
  );
}
