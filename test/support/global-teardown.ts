export default async function globalTeardown(): Promise<void> {
  const embedded = (globalThis as { __sabotEmbedded?: { stop(): Promise<void> } }).__sabotEmbedded;
  if (embedded) await embedded.stop();
}
