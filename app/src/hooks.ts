import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';
import { follow, LiveEvent } from './live';

/** Loads a screen's figures, again whenever `reload` is called (coalesced: one load at a time, the latest wins). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | null; error: string | null; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const again = useRef(false);
  const reload = useCallback(() => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    void (async () => {
      do {
        again.current = false;
        try {
          setData(await load());
          setError(null);
        } catch (e) {
          setError(e instanceof ApiError ? `${e.message} (${e.code})` : 'The service did not answer');
        }
      } while (again.current);
      running.current = false;
    })();
  }, deps);
  useEffect(reload, [reload]);
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
