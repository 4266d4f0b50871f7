import { useState } from 'preact/hooks';
import { session, Schemas } from './api';
import { Outcome, useAct } from './act';
import { useCaller } from './caller';
import { useT, Words } from './i18n';

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
  table: "A table's key needs no claim.",
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
    table: '賭枱的金鑰毋須領取。',
  },
  'zh-Hans': {
    title: '你的密钥',
    name: '名称',
    role: '职能',
    staff: '员工编号',
    claim: '领取此密钥',
    claimHint: '管理员看过你登录所用的密码。领取密钥即以只有你看到的新密码取代；然后请第二位管理员当面见证。在此之前，此密钥亦算作该管理员可持有。',
    claimed: '已领取。这是你的新密码：请立即保存，只会显示一次。此分页已改用新密码；旧密码不再有效。',
    table: '赌台的密钥毋须领取。',
  },
};

export function Key() {
  const t = useT(KEY);
  const caller = useCaller();
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
          <dd>{caller.role}</dd>
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
      ) : (
        <section aria-labelledby="key-claim">
          <h2 id="key-claim">{t.claim}</h2>
          <p class="hint">{t.claimHint}</p>
          {!secret && (
            <button type="button" disabled={act.busy} onClick={() => void claim()}>
              {t.claim}
            </button>
          )}
          <Outcome problem={act.problem} done={secret ? t.claimed : null} testId="key-claimed" />
          {secret && (
            <p>
              <code data-testid="new-secret">{secret}</code>
            </p>
          )}
        </section>
      )}
    </main>
  );
}
