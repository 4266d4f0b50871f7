import { useT } from './i18n';
import { WORDS } from './words';

/** What went wrong: the API's code and message. NETWORK when the service did not answer at all. */
export interface Problem {
  code: string;
  message: string;
}

/**
 * What went wrong, with its code and what to do about it, announced to a screen reader as it
 * appears; nothing when all is well. The service's message is shown as it wrote it.
 */
export function ErrorNote({ problem }: { problem: Problem | null | undefined }) {
  const w = useT(WORDS);
  if (!problem) return null;
  return (
    <div role="alert" class="error" data-code={problem.code}>
      <p>{problem.code === 'NETWORK' ? w.noAnswer : problem.message}</p>
      <p class="advice">
        {w.advice[problem.code] ?? w.advice.OTHER}{' '}
        <span class="code">
          ({w.code} {problem.code})
        </span>
      </p>
    </div>
  );
}
