import { useState } from 'preact/hooks';
import { get, Schemas } from './api';
import { ActForm, ActPart, Field, Outcome, TextField, useAct } from './act';
import { minorOf, wireAmount } from './amounts';
import { mayCall, useCaller } from './caller';
import { useLoad } from './hooks';
import { useT, Words } from './i18n';

/**
 * What the VIP room records (issue 50): patrons registered by card, junket operators and their
 * agents, members joining and leaving under a programme, and a period's statement put to the credit
 * office for agreement (asked for here with the digest the junket saw; a second person approves it
 * in the credit office, which records it). Each form is shown only to a role that may call its
 * operation; refusals are said by code (refusals/vip.ts).
 */
const en = {
  register: 'Register a patron',
  registerHint: 'A patron is known by the card number; name and tier are optional.',
  card: 'Card number',
  name: 'Name',
  tier: 'Tier',
  registered: (card: string) => `Patron ${card} is registered.`,
  newJunket: 'A new junket operator',
  code: 'Code',
  licence: 'Licence',
  currency: 'Account currency',
  creditLimit: 'Credit line asked for',
  creditHint: 'A credit line is asked for here and approved in the credit office.',
  junketDone: (code: string) => `Junket ${code} is recorded.`,
  agent: 'Add an agent',
  agentDone: (code: string) => `Agent ${code} is added.`,
  join: 'A member joins',
  programme: 'Programme',
  agentOf: 'Agent',
  none: '—',
  from: 'From gaming day (default today)',
  joined: (card: string) => `${card} plays for the junket.`,
  leave: 'A member leaves',
  left: (card: string) => `${card} leaves the junket.`,
  agree: "Ask to agree this period's statement",
  agreeHint:
    "The figures above, as the junket's signatory saw them (their digest), go to the credit office: a second person approves, then it is recorded and the period locked.",
  signatory: "Junket's signatory",
  reason: 'Why',
  asked: (id: string) => `Asked (request ${id}). A second person approves it in the credit office.`,
  badAmount: (currency: string) => `Write the amount in ${currency} as digits (1,234.50), with no more decimals than ${currency} has.`,
  send: 'Record',
  ask: 'Ask',
};

const VIP_ACTS: Words<typeof en> = {
  en,
  'zh-Hant': {
    register: '登記客戶',
    registerHint: '客戶以卡號識別；姓名及級別可選填。',
    card: '卡號',
    name: '姓名',
    tier: '級別',
    registered: (card) => `客戶 ${card} 已登記。`,
    newJunket: '新增中介人',
    code: '編號',
    licence: '牌照',
    currency: '賬戶貨幣',
    creditLimit: '申請的信貸額度',
    creditHint: '信貸額度在此申請，於信貸辦公室批准。',
    junketDone: (code) => `中介人 ${code} 已記錄。`,
    agent: '新增代理',
    agentDone: (code) => `代理 ${code} 已新增。`,
    join: '成員加入',
    programme: '計劃',
    agentOf: '代理',
    none: '—',
    from: '由博彩日起（預設今日）',
    joined: (card) => `${card} 為中介人博彩。`,
    leave: '成員離開',
    left: (card) => `${card} 離開中介人。`,
    agree: '申請確認本期結算單',
    agreeHint: '以上數字（連同中介人簽署人所見的摘要）送交信貸辦公室：由第二人批准後記錄，並鎖定該期。',
    signatory: '中介人簽署人',
    reason: '原因',
    asked: (id) => `已申請（申請 ${id}），由第二人在信貸辦公室批准。`,
    badAmount: (currency) => `請以數字填寫 ${currency} 金額（1,234.50），小數位不可多於 ${currency} 所有。`,
    send: '記錄',
    ask: '申請',
  },
  'zh-Hans': {
    register: '登记客户',
    registerHint: '客户以卡号识别；姓名及级别可选填。',
    card: '卡号',
    name: '姓名',
    tier: '级别',
    registered: (card) => `客户 ${card} 已登记。`,
    newJunket: '新增中介人',
    code: '编号',
    licence: '牌照',
    currency: '账户货币',
    creditLimit: '申请的信贷额度',
    creditHint: '信贷额度在此申请，于信贷办公室批准。',
    junketDone: (code) => `中介人 ${code} 已记录。`,
    agent: '新增代理',
    agentDone: (code) => `代理 ${code} 已新增。`,
    join: '成员加入',
    programme: '计划',
    agentOf: '代理',
    none: '—',
    from: '由博彩日起（默认今日）',
    joined: (card) => `${card} 为中介人博彩。`,
    leave: '成员离开',
    left: (card) => `${card} 离开中介人。`,
    agree: '申请确认本期结算单',
    agreeHint: '以上数字（连同中介人签署人所见的摘要）送交信贷办公室：由第二人批准后记录，并锁定该期。',
    signatory: '中介人签署人',
    reason: '原因',
    asked: (id) => `已申请（申请 ${id}），由第二人在信贷办公室批准。`,
    badAmount: (currency) => `请以数字填写 ${currency} 金额（1,234.50），小数位不可多于 ${currency} 所有。`,
    send: '记录',
    ask: '申请',
  },
};

type Junket = Schemas['JunketDto'];
type Programme = Schemas['ProgrammeDto'];

/** Registers a patron by card (registerPatron: HOST, SUPERVISOR). */
export function RegisterPatron() {
  const t = useT(VIP_ACTS);
  const act = useAct();
  const [v, setV] = useState({ card: '', name: '', tier: '' });
  const [done, setDone] = useState<string | null>(null);
  if (!mayCall(useCaller(), 'registerPatron')) return null;
  const send = async () => {
    setDone(null);
    const p = await act.send<Schemas['PatronDto']>('/v1/patrons', {
      card: v.card.trim(),
      ...(v.name.trim() ? { name: v.name.trim() } : {}),
      ...(v.tier.trim() ? { tier: v.tier.trim() } : {}),
    });
    if (p) {
      setDone(t.registered(p.card));
      setV({ card: '', name: '', tier: '' });
    }
  };
  return (
    <ActPart level={3} id="vip-register" title={t.register} hint={t.registerHint}>
      <ActForm label={t.register} testId="vip-register-form" busy={act.busy} button={t.send} onSubmit={() => void send()}>
        <TextField label={t.card} name="card" required value={v.card} onInput={(card) => setV({ ...v, card })} />
        <TextField label={t.name} name="name" value={v.name} onInput={(name) => setV({ ...v, name })} />
        <TextField label={t.tier} name="tier" value={v.tier} onInput={(tier) => setV({ ...v, tier })} />
      </ActForm>
      <Outcome problem={act.problem} done={done} testId="vip-register-done" />
    </ActPart>
  );
}

/** A new junket operator at the property (createJunket: FINANCE, ADMIN); its credit line asked for with it. */
export function NewJunket({ propertyId, currency, onDone }: { propertyId: string; currency: string; onDone: () => void }) {
  const t = useT(VIP_ACTS);
  const act = useAct();
  const [v, setV] = useState({ code: '', name: '', licence: '', currency, creditLimit: '0' });
  const [local, setLocal] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  if (!mayCall(useCaller(), 'createJunket')) return null;
  const send = async () => {
    setDone(null);
    const limit = minorOf(v.creditLimit, v.currency.trim().toUpperCase());
    setLocal(limit === null ? t.badAmount(v.currency) : null);
    if (limit === null) return;
    const j = await act.send<Junket>(`/v1/properties/${propertyId}/junkets`, {
      code: v.code.trim(),
      name: v.name.trim(),
      ...(v.licence.trim() ? { licence: v.licence.trim() } : {}),
      currency: v.currency.trim().toUpperCase(),
      creditLimit: wireAmount(limit),
    });
    if (j) {
      setDone(t.junketDone(j.code));
      setV({ code: '', name: '', licence: '', currency, creditLimit: '0' });
      onDone();
    }
  };
  return (
    <ActPart level={3} id="vip-new-junket" title={t.newJunket} hint={t.creditHint}>
      <ActForm label={t.newJunket} testId="vip-new-junket-form" busy={act.busy} button={t.send} onSubmit={() => void send()}>
        <TextField label={t.code} name="code" required value={v.code} onInput={(code) => setV({ ...v, code })} />
        <TextField label={t.name} name="name" required value={v.name} onInput={(name) => setV({ ...v, name })} />
        <TextField label={t.licence} name="licence" value={v.licence} onInput={(licence) => setV({ ...v, licence })} />
        <TextField label={t.currency} name="currency" required value={v.currency} onInput={(c) => setV({ ...v, currency: c })} />
        <TextField label={t.creditLimit} name="creditLimit" value={v.creditLimit} onInput={(creditLimit) => setV({ ...v, creditLimit })} />
      </ActForm>
      <Outcome local={local} problem={act.problem} done={done} testId="vip-new-junket-done" />
    </ActPart>
  );
}

/** The chosen junket's acts: an agent added, members joining and leaving, the statement put for agreement. */
export function JunketActs({
  junket,
  period,
  onDone,
}: {
  junket: Junket;
  /** The statement shown: its period and digest (null while it loads or when it is agreed already). */
  period: { from: string; to: string; digest: string } | null;
  onDone: () => void;
}) {
  const caller = useCaller();
  const programmes = useLoad(
    () =>
      mayCall(caller, 'listRollingProgrammes')
        ? get<Programme[]>(`/v1/properties/${junket.propertyId}/rolling-programmes`)
        : Promise.resolve([] as Programme[]),
    [],
  );
  const codes = [...new Set((programmes.data ?? []).map((p) => p.code))].sort();
  return (
    <section class="acts" data-testid="vip-acts">
      <AddAgent junket={junket} onDone={onDone} />
      <Join junket={junket} programmes={codes} onDone={onDone} />
      <Leave junket={junket} onDone={onDone} />
      {period && <AskAgreement junket={junket} period={period} />}
    </section>
  );
}

function AddAgent({ junket, onDone }: { junket: Junket; onDone: () => void }) {
  const t = useT(VIP_ACTS);
  const act = useAct();
  const [v, setV] = useState({ code: '', name: '' });
  const [done, setDone] = useState<string | null>(null);
  if (!mayCall(useCaller(), 'addJunketAgent')) return null;
  const send = async () => {
    setDone(null);
    const code = v.code.trim();
    const answer = await act.send<Junket>(`/v1/junkets/${junket.id}/agents`, { code, name: v.name.trim() });
    if (answer) {
      setDone(t.agentDone(code));
      setV({ code: '', name: '' });
      onDone();
    }
  };
  return (
    <ActPart level={3} id="vip-agent" title={t.agent}>
      <ActForm label={t.agent} testId="vip-agent-form" busy={act.busy} button={t.send} onSubmit={() => void send()}>
        <TextField label={t.code} name="code" required value={v.code} onInput={(code) => setV({ ...v, code })} />
        <TextField label={t.name} name="name" required value={v.name} onInput={(name) => setV({ ...v, name })} />
      </ActForm>
      <Outcome problem={act.problem} done={done} testId="vip-agent-done" />
    </ActPart>
  );
}

function Join({ junket, programmes, onDone }: { junket: Junket; programmes: string[]; onDone: () => void }) {
  const t = useT(VIP_ACTS);
  const act = useAct();
  const [v, setV] = useState({ card: '', programme: '', agent: '', from: '' });
  const [done, setDone] = useState<string | null>(null);
  if (!mayCall(useCaller(), 'joinJunket')) return null;
  const programme = v.programme || programmes[0] || '';
  const send = async () => {
    setDone(null);
    const m = await act.send<Schemas['MembershipDto']>(`/v1/junkets/${junket.id}/members`, {
      patronId: v.card.trim(),
      programme,
      ...(v.agent ? { agent: v.agent } : {}),
      ...(v.from ? { effectiveFrom: v.from } : {}),
    });
    if (m) {
      setDone(t.joined(m.patronId));
      setV({ card: '', programme: v.programme, agent: v.agent, from: '' });
      onDone();
    }
  };
  return (
    <ActPart level={3} id="vip-join" title={t.join}>
      <ActForm label={t.join} testId="vip-join-form" busy={act.busy} button={t.send} onSubmit={() => void send()}>
        <TextField label={t.card} name="card" required value={v.card} onInput={(card) => setV({ ...v, card })} />
        <Field label={t.programme}>
          <select name="programme" value={programme} onChange={(e) => setV({ ...v, programme: e.currentTarget.value })}>
            {programmes.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t.agentOf}>
          <select name="agent" value={v.agent} onChange={(e) => setV({ ...v, agent: e.currentTarget.value })}>
            <option value="">{t.none}</option>
            {junket.agents.map((a) => (
              <option key={a.code} value={a.code}>
                {a.code} · {a.name}
              </option>
            ))}
          </select>
        </Field>
        <TextField label={t.from} name="effectiveFrom" type="date" value={v.from} onInput={(from) => setV({ ...v, from })} />
      </ActForm>
      <Outcome problem={act.problem} done={done} testId="vip-join-done" />
    </ActPart>
  );
}

function Leave({ junket, onDone }: { junket: Junket; onDone: () => void }) {
  const t = useT(VIP_ACTS);
  const act = useAct();
  const [v, setV] = useState({ card: '', from: '' });
  const [done, setDone] = useState<string | null>(null);
  if (!mayCall(useCaller(), 'leaveJunket')) return null;
  const send = async () => {
    setDone(null);
    const card = v.card.trim();
    const m = await act.send<Schemas['MembershipDto']>(
      `/v1/junkets/${junket.id}/members/${encodeURIComponent(card)}/leave`,
      v.from ? { effectiveFrom: v.from } : {},
    );
    if (m) {
      setDone(t.left(card));
      setV({ card: '', from: '' });
      onDone();
    }
  };
  return (
    <ActPart level={3} id="vip-leave" title={t.leave}>
      <ActForm label={t.leave} testId="vip-leave-form" busy={act.busy} button={t.send} onSubmit={() => void send()}>
        <TextField label={t.card} name="card" required value={v.card} onInput={(card) => setV({ ...v, card })} />
        <TextField label={t.from} name="effectiveFrom" type="date" value={v.from} onInput={(from) => setV({ ...v, from })} />
      </ActForm>
      <Outcome problem={act.problem} done={done} testId="vip-leave-done" />
    </ActPart>
  );
}

/** The period's statement put to the credit office (a STATEMENT request) with the digest shown above. */
function AskAgreement({ junket, period }: { junket: Junket; period: { from: string; to: string; digest: string } }) {
  const t = useT(VIP_ACTS);
  const caller = useCaller();
  const act = useAct();
  const [v, setV] = useState({ signatory: '', reason: '' });
  const [done, setDone] = useState<string | null>(null);
  if (!mayCall(caller, 'requestCredit') || caller.role === 'CASHIER') return null;
  const send = async () => {
    setDone(null);
    const r = await act.send<Schemas['CreditRequestDto']>(`/v1/properties/${junket.propertyId}/credit-requests`, {
      act: 'STATEMENT',
      junketId: junket.id,
      from: period.from,
      to: period.to,
      digest: period.digest,
      junketSignatory: v.signatory.trim(),
      reason: v.reason.trim(),
    });
    // Nothing shown above changes until the request is approved and recorded in the credit office.
    if (r) setDone(t.asked(r.id));
  };
  return (
    <ActPart level={3} id="vip-agree" title={t.agree} hint={t.agreeHint}>
      <ActForm label={t.agree} testId="vip-agree-form" busy={act.busy} button={t.ask} onSubmit={() => void send()}>
        <TextField label={t.signatory} name="signatory" required value={v.signatory} onInput={(signatory) => setV({ ...v, signatory })} />
        <TextField label={t.reason} name="reason" required value={v.reason} onInput={(reason) => setV({ ...v, reason })} />
      </ActForm>
      <Outcome problem={act.problem} done={done} testId="vip-agree-done" />
    </ActPart>
  );
}
