import { session } from './api';

export interface LiveEvent {
  id: string;
  type: string;
  stream: string;
  seq: number;
}

/**
 * Follows a Server-Sent Events route of the service (over fetch, which can send the API key; a
 * browser's EventSource cannot), reconnecting after a drop with the last event id. `onReady` is
 * called when the stream (re)opens: a screen reads its figures then, so nothing between two
 * connections is missed; `onEvent` for each event. A key the service no longer takes (401, or the
 * stream's `end`) stops it, and the app shows the sign-in form.
 */
export function follow(path: string, handlers: { onReady(): void; onEvent(e: LiveEvent): void; onState?(live: boolean): void }): () => void {
  const abort = new AbortController();
  let lastId: string | null = null;
  let stopped = false;

  const run = async () => {
    while (!stopped) {
      try {
        const h: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${session.key() ?? ''}` };
        if (lastId) h['Last-Event-ID'] = lastId;
        const res = await fetch(path, { headers: h, signal: abort.signal });
        if (res.status === 401) {
          // The key was revoked or has expired: no retry will be taken; the app signs out.
          stopped = true;
          session.refused();
          return;
        }
        if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            let data = '';
            let id: string | null = null;
            for (const line of frame.split('\n')) {
              if (line.startsWith('event:')) event = line.slice(6).trim();
              else if (line.startsWith('data:')) data += line.slice(5).trim();
              else if (line.startsWith('id:')) id = line.slice(3).trim();
            }
            if (event === 'end') {
              // The service ended the stream because the key is no longer valid.
              stopped = true;
              session.refused();
              return;
            }
            if (event === 'ready') {
              handlers.onState?.(true);
              handlers.onReady();
            } else if (event === 'message' && data) {
              if (id) lastId = id;
              handlers.onEvent(JSON.parse(data) as LiveEvent);
            } else if (event === 'changed' && id) {
              // A table-side display's stream: only that the board changed, its seq as the id.
              lastId = id;
              handlers.onEvent({ id, type: 'changed', stream: '', seq: Number(id) });
            }
          }
        }
      } catch {
        // dropped or refused: try again shortly
      }
      if (stopped) return;
      handlers.onState?.(false);
      await new Promise((r) => setTimeout(r, 1_000));
    }
  };
  void run();
  return () => {
    stopped = true;
    abort.abort();
  };
}
