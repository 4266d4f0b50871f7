import { useLang, useT } from './i18n';
import { REFUSALS } from './refusals';
import { WORDS } from './words';

/** What went wrong: the API's code and message. NETWORK when the service did not answer at all. */
export interface Problem {
  code: string;
  message: string;
}

/**
 * What went wrong, with its code and what to do about it, announced to a screen reader as it
 * appears; nothing when all is well. A refusal the screens know (app/src/refusals) is said in the
 * screen's language, with the service's own message beneath it as the service wrote it (English).
 */
export function ErrorNote({ problem }: { problem: Problem | null | undefined }) {
  const w = useT(WORDS);
  const lang = useLang();
  if (!problem) return null;
  const said = REFUSALS[lang][problem.code];
  return (
    <div role="alert" class="error" data-code={problem.code}>
      {said ? (
        <>
          <p data-testid="refusal">{said}</p>
          <p class="detail" lang="en">
            {problem.message}
          </p>
        </>
      ) : (
        <p>{problem.code === 'NETWORK' ? w.noAnswer : problem.message}</p>
      )}
      <p class="advice">
        {w.advice[problem.code] ?? (said ? '' : w.advice.OTHER)}{' '}
        <span class="code">
          ({w.code} {problem.code})
        </span>
      </p>
    </div>
  );
}
