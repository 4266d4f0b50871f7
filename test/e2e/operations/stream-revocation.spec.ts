import { listening, startTestApp, TestContext } from '../../support/app';
import { dealtHands, givenPit } from '../../support/builders';
import { ServerSentEvent, SseClient } from '../../support/sse';
import { TableFeeds } from '../../../src/operations/events/table-feeds';

/**
 * A revoked key's stream never sees an event written after the revocation, even on the path that
 * reads a gap from the audit log (no NATS here): the read goes no further than the news the key was
 * asked about. The revocation and a coup are made to land between the key's look and that read, by
 * running them first thing in the read (the instance's own TableFeeds, wrapped once).
 */
let ctx: TestContext;
let url: string;
beforeAll(async () => {
  ctx = await startTestApp();
  url = await listening(ctx.app);
});
afterAll(() => ctx.close());

const coup = async (key: string, shoeId: string, cards: { player: string[]; banker: string[] }) =>
  (
    await ctx
      .as(key)
      .post(`/v1/shoes/${shoeId}/coups`, { cards, wagers: [{ seat: 2, betType: 'PLAYER', amount: 500 }] })
      .expect(201)
  ).body.id as string;
const messages = (frames: ServerSentEvent[]) =>
  frames.filter((f) => f.event === 'message').map((f) => (JSON.parse(f.data) as { entity: { id: string } }).entity.id);

it('a revocation landing between the key’s look and the read of a gap: the event written after it is never sent', async () => {
  const pit = await givenPit(ctx, { code: 'SSE-GAP' });
  const minted = (await ctx.admin.post('/v1/api-keys', { name: 'Screen of SSE-GAP', role: 'TERMINAL', tableId: pit.table.id }).expect(201)).body as {
    id: string;
    key: string;
  };
  const screen = await SseClient.open(`${url}/v1/tables/${pit.table.id}/events`, minted.key);
  expect((await screen.take(1))[0].event).toBe('ready');
  const [h1, h2] = dealtHands(8, 29, 2);

  const feeds = ctx.app.get(TableFeeds);
  const read = feeds.entriesAfter.bind(feeds);
  let late: Promise<string> | null = null;
  feeds.entriesAfter = async (tableId: string, after: number) => {
    if (!late) {
      // First thing in the read: the key revoked, and a coup written after it.
      late = (async () => {
        await ctx.admin.post(`/v1/api-keys/${minted.id}/revoke`, {}).expect(200);
        return coup(pit.terminal, pit.shoe.id, h2);
      })();
      await late;
    }
    return read(tableId, after);
  };
  try {
    const first = await coup(pit.terminal, pit.shoe.id, h1);
    await screen.ended();
    const frames = screen.pending();
    expect(messages(frames)).toEqual([first]);
    expect(frames[frames.length - 1]).toMatchObject({ event: 'end' });
    expect(messages(frames)).not.toContain(await late!);
  } finally {
    feeds.entriesAfter = read;
    await screen.close();
  }
});
