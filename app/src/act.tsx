import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { ApiError, post } from './api';
import { ErrorNote, Problem } from './error-note';
import { problemOf } from './hooks';

/** A fresh Idempotency-Key: one per act the person fills in. */
export const newIdempotencyKey = (): string => crypto.randomUUID();

/**
 * A write a screen offers (an act: open a shoe, record a coup, issue a marker). One act at a time
 * per form. The act's Idempotency-Key is made when it is first sent and kept while the service has
 * not answered (a network failure), so pressing the button again sends the same act, never a second
 * one; an answer (done or refused) ends the act and the next send is a new one. A refusal is the
 * service's code, shown by `ActProblem` in the screen's language.
 */
export function useAct() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const pending = useRef<{ key: string; path: string; body: string } | null>(null);
  const send = async <T,>(path: string, body: unknown): Promise<T | null> => {
    const text = JSON.stringify(body);
    // Same act again after no answer: same key. Anything else: a new act.
    if (!pending.current || pending.current.path !== path || pending.current.body !== text) pending.current = { key: newIdempotencyKey(), path, body: text };
    setBusy(true);
    setProblem(null);
    try {
      const answer = await post<T>(path, body, pending.current.key);
      pending.current = null;
      return answer;
    } catch (e) {
      if (e instanceof ApiError) pending.current = null;
      setProblem(problemOf(e));
      return null;
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, send, clear: () => setProblem(null) };
}

/** What an act's form shows under its button: the refusal, or nothing. */
export function ActProblem({ problem }: { problem: Problem | null }) {
  return <ErrorNote problem={problem} />;
}

/** A confirmation that an act was recorded, announced to a screen reader. */
export function Done({ children, testId }: { children: ComponentChildren; testId?: string }) {
  return (
    <p role="status" class="done" data-testid={testId}>
      {children}
    </p>
  );
}

/**
 * What came of an act, under its form: the form's own objection (a field the screen could not read,
 * said before anything is sent), the service's refusal, or the confirmation.
 */
export function Outcome({ local, problem, done, testId }: { local?: string | null; problem: Problem | null; done?: string | null; testId?: string }) {
  return (
    <>
      {local && (
        <p role="alert" class="error">
          {local}
        </p>
      )}
      <ActProblem problem={problem} />
      {done && <Done testId={testId}>{done}</Done>}
    </>
  );
}
