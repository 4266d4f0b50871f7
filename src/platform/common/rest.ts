/**
 * A background loop's rest: `for(ms)` waits that long, or less if `wake()` is called meanwhile (a
 * write to publish at once). After `stop()` (the service stopping) no rest lasts: the loop finishes
 * its work in hand and ends. One rest at a time.
 */
export class Rest {
  private waking: (() => void) | null = null;
  private stopped = false;

  for(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waking = null;
        resolve();
      }, ms);
      this.waking = () => {
        clearTimeout(timer);
        this.waking = null;
        resolve();
      };
    });
  }

  wake(): void {
    this.waking?.();
  }

  stop(): void {
    this.stopped = true;
    this.waking?.();
  }
}
