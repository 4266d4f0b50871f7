import { useState } from 'preact/hooks';
import { session, Schemas } from './api';
import { Outcome, useAct } from './act';
import { useCaller } from './caller';
import { useFormat } from './format';
import { useLang, useT, Words } from './i18n';
import { ROLE_NAMES } from './role-names';

/**
 * The signed-in key (#/key, issue 50): who it is, and its claim. A person's key is minted by an
 * administrator, who saw its secret; until its holder claims it (a new secret only they see) the
 * two-person rules count the minter as someone who could hold it. Claiming here answers the new
 * secret once: this tab signs in with it at once, and the old secret stops working.
 */
const en = {
  title: 'Your key',
  name: 'Name',
  role: 'Role',
  staff: 'Staff number',
  claim: 'Claim this key',
  claimHint:
    "Your administrator saw the secret you signed in with. Claim the key to replace it with a new secret only you see; then ask a second administrator to witness the claim in front of you. Until then, the key counts as your administrator's too.",
  claimed: 'Claimed. This is your new secret: keep it now, it is shown once. This tab already uses it; the old one no longer works.',
  claimedOn: (when: string) => `You claimed this key on ${when}.`,
  witnessedOn: (when: string) => `A second administrator witnessed the claim on ${when}: the key is yours alone.`,
  notWitnessed: 'No second administrator has witnessed the claim yet: ask one to, in front of you. Until then the key counts as your administrator’s too.',
  lost: 'No answer came. If the claim was made, its new secret was in that answer and is kept nowhere, and the old one no longer works: ask your administrator to revoke this key and mint you another.',
  table: "A table's key needs no claim.",
  stop: 'Stop this key',
  stopHint:
    'If someone may have seen your secret, stop the key now: it stops at once, in every tab and device using it. Your administrator then mints you another.',
  stopConfirm: 'Yes, stop it now',
  stopped: 'Stopped. This key no longer works anywhere; sign in with another.',
};

const KEY: Words<typeof en> = {
  en,
  'zh-Hant': {
    title: '你的金鑰',
    name: '名稱',
    role: '職能',
    staff: '員工編號',
    claim: '領取此金鑰',
    claimHint: '管理員看過你登入所用的密碼。領取金鑰即以只有你看到的新密碼取代；然後請第二位管理員當面見證。在此之前，此金鑰亦算作該管理員可持有。',
    claimed: '已領取。這是你的新密碼：請立即保存，只會顯示一次。此分頁已改用新密碼；舊密碼不再有效。',
    claimedOn: (when) => `你已於 ${when} 領取此金鑰。`,
    witnessedOn: (when) => `第二位管理員已於 ${when} 見證領取：此金鑰只屬於你。`,
    notWitnessed: '尚未有第二位管理員見證領取：請一位當面見證。在此之前，此金鑰亦算作該管理員可持有。',
    lost: '沒有回應。若已領取，新密碼只在該回應中，且無處保存，舊密碼亦已失效：請管理員註銷此金鑰，再為你發出新的。',
    table: '賭枱的金鑰毋須領取。',
    stop: '停用此金鑰',
    stopHint: '若密碼可能已被他人看見，請立即停用：所有使用它的分頁及裝置即時失效。然後由管理員為你發出新的金鑰。',
    stopConfirm: '確定，立即停用',
    stopped: '已停用。此金鑰在任何地方均不再有效；請以另一金鑰登入。',
  },
  'zh-Hans': {
    title: '你的密钥',
    name: '名称',
    role: '职能',
    staff: '员工编号',
    claim: '领取此密钥',
    claimHint: '管理员看过你登录所用的密码。领取密钥即以只有你看到的新密码取代；然后请第二位管理员当面见证。在此之前，此密钥亦算作该管理员可持有。',
    claimed: '已领取。这是你的新密码：请立即保存，只会显示一次。此分页已改用新密码；旧密码不再有效。',
    claimedOn: (when) => `你已于 ${when} 领取此密钥。`,
    witnessedOn: (when) => `第二位管理员已于 ${when} 见证领取：此密钥只属于你。`,
    notWitnessed: '尚未有第二位管理员见证领取：请一位当面见证。在此之前，此密钥亦算作该管理员可持有。',
    lost: '没有回应。若已领取，新密码只在该回应中，且无处保存，旧密码亦已失效：请管理员注销此密钥，再为你发出新的。',
    table: '赌台的密钥毋须领取。',
    stop: '停用此密钥',
    stopHint: '若密码可能已被他人看见，请立即停用：所有使用它的分页及设备即时失效。然后由管理员为你发出新的密钥。',
    stopConfirm: '确定，立即停用',
    stopped: '已停用。此密钥在任何地方均不再有效；请以另一密钥登录。',
  },
};

export function Key() {
  const t = useT(KEY);
  const f = useFormat();
  const caller = useCaller();
  const lang = useLang();
  const act = useAct();
  const [secret, setSecret] = useState<string | null>(null);
  const claim = async () => {
    const answer = await act.send<Schemas['CreatedApiKeyDto']>('/v1/api-keys/claim', {});
    if (answer?.key) {
      // The new secret from now on: the old one is no longer taken.
      session.signIn(answer.key);
      setSecret(answer.key);
    }
  };
  // A claim whose answer was lost is not sent again: its secret went with the answer (see `lost`).
  const lost = act.problem?.code === 'NETWORK';
  const claimed = caller.claimedAt ?? null;
  return (
    <main class="key">
      <h1>{t.title}</h1>
      <dl class="facts">
        <div>
          <dt>{t.name}</dt>
          <dd>{caller.name}</dd>
        </div>
        <div>
          <dt>{t.role}</dt>
          <dd data-value={caller.role}>{ROLE_NAMES[lang][caller.role] ?? caller.role}</dd>
        </div>
        {caller.staffId && (
          <div>
            <dt>{t.staff}</dt>
            <dd>{caller.staffId}</dd>
          </div>
        )}
      </dl>
      {caller.tableId ? (
        <p class="hint">{t.table}</p>
      ) : claimed && !secret ? (
        <section aria-labelledby="key-claim" data-testid="key-claim-state">
          <h2 id="key-claim">{t.claim}</h2>
          <p>{t.claimedOn(f.dateTime(claimed))}</p>
          <p class="hint">{caller.claimWitnessedAt ? t.witnessedOn(f.dateTime(caller.claimWitnessedAt)) : t.notWitnessed}</p>
        </section>
      ) : (
        caller.staffId && (
          <section aria-labelledby="key-claim">
            <h2 id="key-claim">{t.claim}</h2>
            <p class="hint">{t.claimHint}</p>
            {!secret && !lost && (
              <button type="button" disabled={act.busy} onClick={() => void claim()}>
                {t.claim}
              </button>
            )}
            {lost ? (
              <p role="alert" class="error" data-testid="key-claim-lost">
                {t.lost}
              </p>
            ) : (
              <Outcome problem={act.problem} done={secret ? t.claimed : null} testId="key-claimed" />
            )}
            {secret && (
              <p>
                <code data-testid="new-secret">{secret}</code>
              </p>
            )}
          </section>
        )
      )}
      {/* A key of one's own, held alone (its claim witnessed), is one's own to stop; the service refuses any other. */}
      {caller.staffId && caller.claimWitnessedAt && <StopKey keyId={caller.keyId} />}
    </main>
  );
}

/** A person stops the key they signed in with, at once (POST /v1/api-keys/{id}/revoke), after saying yes twice. */
function StopKey({ keyId }: { keyId: string }) {
  const t = useT(KEY);
  const act = useAct();
  const [asked, setAsked] = useState(false);
  const [stopped, setStopped] = useState(false);
  const stop = async () => {
    if (await act.send<Schemas['ApiKeyDto']>(`/v1/api-keys/${keyId}/revoke`, {})) setStopped(true);
  };
  return (
    <section aria-labelledby="key-stop">
      <h2 id="key-stop">{t.stop}</h2>
      <p class="hint">{t.stopHint}</p>
      {!stopped &&
        (asked ? (
          <button type="button" disabled={act.busy} onClick={() => void stop()}>
            {t.stopConfirm}
          </button>
        ) : (
          <button type="button" onClick={() => setAsked(true)}>
            {t.stop}
          </button>
        ))}
      <Outcome problem={act.problem} done={stopped ? t.stopped : null} testId="key-stopped" />
    </section>
  );
}
