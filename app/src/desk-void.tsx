import { useState } from 'preact/hooks';
import { ActProblem, Done, useAct } from './act';
import { DESK } from './desk-words';
import { useT } from './i18n';

/** Asks for a record's void, with its reason: another supervisor decides (the desk's queue of voids). */
export function AskVoid({ path, label, onDone }: { path: string; label: string; onDone: () => void }) {
  const t = useT(DESK);
  const act = useAct();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  if (done) return <Done>{done}</Done>;
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <form
      class="act"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        void act.send(path, { reason: reason.trim() }).then((r) => {
          if (!r) return;
          setDone(t.voidAskedOf);
          onDone();
        });
      }}
    >
      <label>
        {t.reason}
        <input autoComplete="off" value={reason} onInput={(e) => setReason(e.currentTarget.value)} required />
      </label>
      <button type="submit" disabled={act.busy}>
        {t.askVoidButton}
      </button>
      <ActProblem problem={act.problem} />
    </form>
  );
}
