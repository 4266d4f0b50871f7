import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';
import type { Problem } from './error-note';
import { follow, LiveEvent } from './live';

/**
 * Loads a screen's figures, again whenever `reload` is called (coalesced: one load at a time, the
 * latest wins). When `deps` change (a new question) while a load runs, the load in flight is
 * answering the old question: its answer is dropped and the new question is asked.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | null; error: Problem | null; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const running = useRef(false);
  const again = useRef(false);
  // The load of the latest render (it closes over the latest question), and which question that is.
  const latest = useRef(load);
  latest.current = load;
  const question = useRef(0);
  const reload = useCallback(() => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    void (async () => {
      do {
        again.current = false;
        const asked = question.current;
        try {
          const answer = await latest.current();
          if (asked === question.current) {
            setData(answer);
            setError(null);
          }
        } catch (e) {
          if (asked === question.current) setError(problemOf(e));
        }
      } while (again.current);
      running.current = false;
    })();
  }, deps);
  useEffect(() => {
    question.current++;
    reload();
  }, [reload]);
  return { data, error, reload };
}

/** Follows a live stream while the screen is shown: reloads on (re)connect and on every event. */
export function useLive(path: string | null, reload: () => void, onEvent?: (e: LiveEvent) => void): boolean {
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (!path) return;
    return follow(path, {
      onReady: reload,
      onEvent: (e) => {
        onEvent?.(e);
        reload();
      },
      onState: setLive,
    });
  }, [path]);
  return live;
}

/** An error as a screen shows it: the API's code and message, or NETWORK when nothing answered. */
export function problemOf(e: unknown): Problem {
  return e instanceof ApiError ? { code: e.code, message: e.message } : { code: 'NETWORK', message: 'The service did not answer' };
}
