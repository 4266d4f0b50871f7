import net from 'node:net';

/**
 * A TCP proxy in front of a listening service (http://127.0.0.1:<port>): a browser pointed at the
 * proxy's URL goes through it, and `cut()` drops every connection open at that moment, as a
 * network drop would (a long-lived event stream among them). New connections go through as before.
 */
export async function cutProxy(target: string): Promise<{ url: string; cut(): number; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url,
    cut: () => {
      const n = open.size;
      for (const s of open) s.destroy();
      return n;
    },
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
