import { Connection, escapeLiteral, Submittable } from 'pg';

/**
 * Rows of one text column, read from PostgreSQL's binary COPY format and passed on as bytes,
 * joined by a separator into large buffers: no row becomes a JavaScript string or an object of its
 * own, which for a report of tens of thousands of JSON rows costs the service more than everything
 * else it does with them (mostly in the garbage collector).
 *
 * The format (PostgreSQL manual, COPY, "Binary Format") is read as one byte stream, however it is
 * cut into messages: an 11-byte signature, a 32-bit flags field and a 32-bit header-extension
 * length (then the extension); each row a 16-bit field count, then per field a 32-bit length (−1
 * for NULL) and the bytes; a field count of −1 ends it.
 */
export class TextRowsFromBinaryCopy {
  private static readonly SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
  /** Bytes of an incomplete header or row, kept until the rest arrives. */
  private pending: Buffer | null = null;
  private headerRead = false;
  private ended = false;
  private rows = 0;
  private out: Buffer;
  private used = 0;

  /**
   * @param separator written before every row but the first (a JSON array's comma, say)
   * @param bufferSize the size of the buffers rows are collected in
   */
  constructor(
    private readonly separator: Buffer = Buffer.from(','),
    private readonly bufferSize = 256 * 1024,
  ) {
    this.out = Buffer.allocUnsafe(bufferSize);
  }

  get rowCount(): number {
    return this.rows;
  }

  /** The bytes collected so far, if at least `atLeast` of them; the next rows go to a new buffer. */
  take(atLeast = 1): Buffer | null {
    if (this.used < atLeast || this.used === 0) return null;
    const full = this.out.subarray(0, this.used);
    this.out = Buffer.allocUnsafe(this.bufferSize);
    this.used = 0;
    return full;
  }

  /** Reads a piece of COPY data: a message's payload, or any part of the stream. */
  push(chunk: Buffer): void {
    // An incomplete header or row is completed from the chunk's first bytes, only as many as it needs.
    while (this.pending) {
      const missing = this.missingFrom(this.pending);
      if (missing === 0) {
        const whole = this.pending;
        this.pending = null;
        this.read(whole, true);
        break;
      }
      if (chunk.length === 0) return;
      const n = Math.min(missing, chunk.length);
      this.pending = Buffer.concat([this.pending, chunk.subarray(0, n)]);
      chunk = chunk.subarray(n);
    }
    if (chunk.length > 0) this.read(chunk, false);
  }

  /** Throws unless the data ended where the format says it ends. */
  finish(): void {
    if (!this.ended || this.pending) throw new Error('COPY data ended inside a row');
  }

  /** How many more bytes `partial` (the start of a header or a row) needs to be whole. */
  private missingFrom(partial: Buffer): number {
    if (!this.headerRead) return partial.length < 19 ? 19 - partial.length : 19 + partial.readUInt32BE(15) - partial.length;
    if (partial.length < 2) return 2 - partial.length;
    if (partial.readInt16BE(0) === -1) return 0;
    if (partial.length < 6) return 6 - partial.length;
    return 6 + Math.max(0, partial.readInt32BE(2)) - partial.length;
  }

  private read(buf: Buffer, mustBeWhole: boolean): void {
    let p = 0;
    if (!this.headerRead) {
      if (buf.length < 19 || buf.length < 19 + buf.readUInt32BE(15)) return this.keep(buf, p, mustBeWhole);
      if (!buf.subarray(0, 11).equals(TextRowsFromBinaryCopy.SIGNATURE)) throw new Error('not binary COPY data');
      p = 19 + buf.readUInt32BE(15);
      this.headerRead = true;
    }
    while (p < buf.length) {
      if (this.ended) throw new Error('COPY data after its end');
      if (p + 2 > buf.length) return this.keep(buf, p, mustBeWhole);
      const fields = buf.readInt16BE(p);
      if (fields === -1) {
        this.ended = true;
        p += 2;
        continue;
      }
      if (fields !== 1) throw new Error(`a report row has ${fields} columns, not 1`);
      if (p + 6 > buf.length) return this.keep(buf, p, mustBeWhole);
      const length = buf.readInt32BE(p + 2);
      if (length < 0) throw new Error('a report row is NULL');
      if (p + 6 + length > buf.length) return this.keep(buf, p, mustBeWhole);
      this.append(buf, p + 6, p + 6 + length);
      p += 6 + length;
    }
  }

  private keep(buf: Buffer, from: number, mustBeWhole: boolean): void {
    if (mustBeWhole) throw new Error('COPY data: a row was cut where it cannot be');
    this.pending = Buffer.from(buf.subarray(from)); // a copy: the message's buffer is not ours to keep
  }

  private append(buf: Buffer, start: number, end: number): void {
    const need = end - start + (this.rows > 0 ? this.separator.length : 0);
    if (this.used + need > this.out.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.bufferSize, this.used + need));
      this.out.copy(bigger, 0, 0, this.used);
      this.out = bigger;
    }
    if (this.rows > 0) this.used += this.separator.copy(this.out, this.used);
    this.used += buf.copy(this.out, this.used, start, end);
    this.rows++;
  }
}

/**
 * `COPY (query) TO STDOUT (FORMAT binary)` of a one-text-column query, as a node-pg Submittable
 * (the extension point pg-cursor and pg-query-stream use): node-pg hands over each CopyData
 * message as a slice of what it read from the socket, and the rows are iterated as buffers of
 * about `bufferSize` bytes. When the reader falls two buffers behind, the connection's socket is
 * paused, so a slow client holds PostgreSQL back instead of filling the service's memory.
 */
export class CopyTextRows implements Submittable, AsyncIterable<Buffer> {
  private readonly rows: TextRowsFromBinaryCopy;
  private readonly ready: Buffer[] = [];
  private connection: Connection | null = null;
  private paused = false;
  private done = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly text: string,
    private readonly bufferSize = 256 * 1024,
  ) {
    this.rows = new TextRowsFromBinaryCopy(Buffer.from(','), bufferSize);
  }

  submit(connection: Connection): void {
    this.connection = connection;
    connection.query(this.text);
  }

  handleCopyData(msg: { chunk: Buffer }): void {
    if (this.failure) return;
    try {
      this.rows.push(msg.chunk);
    } catch (e) {
      this.fail(e as Error);
      return;
    }
    const full = this.rows.take(this.bufferSize);
    if (full) {
      this.ready.push(full);
      if (this.ready.length >= 2 && !this.paused && this.connection) {
        this.paused = true;
        this.connection.stream.pause();
      }
      this.signal();
    }
  }

  handleCommandComplete(): void {
    if (this.failure) return;
    try {
      this.rows.finish();
    } catch (e) {
      this.fail(e as Error);
      return;
    }
    const rest = this.rows.take();
    if (rest) this.ready.push(rest);
  }

  handleReadyForQuery(): void {
    this.done = true;
    this.signal();
  }

  handleError(error: Error): void {
    this.fail(error);
    // node-pg sends ReadyForQuery after an error; the iteration ends with the error at once.
    this.done = true;
    this.signal();
  }

  handleCopyInResponse(connection: Connection): void {
    // Never sent for COPY TO; answered as node-pg's own Query answers it.
    (connection as Connection & { sendCopyFail(message: string): void }).sendCopyFail('a report is COPY TO, not COPY FROM');
  }

  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
  handleEmptyQuery(): void {}

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    try {
      for (;;) {
        if (this.failure) throw this.failure;
        const next = this.ready.shift();
        if (next) {
          this.resumeIfBehind();
          yield next;
        } else if (this.done) {
          return;
        } else {
          await new Promise<void>((resolve) => (this.wake = resolve));
        }
      }
    } finally {
      this.resumeIfBehind(true);
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.resumeIfBehind(true);
    this.signal();
  }

  private resumeIfBehind(always = false): void {
    if (this.paused && this.connection && (always || this.ready.length < 2)) {
      this.paused = false;
      this.connection.stream.resume();
    }
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/**
 * A statement with its parameters written in as literals, for COPY (which takes none). Only for
 * SQL the service writes itself: every value a client sent is in `values`, and each is a string
 * (quoted by pg's escapeLiteral), a finite number or a bigint; anything else is refused.
 */
export function inlineParameters(statement: { text: string; values: unknown[] }): string {
  return statement.text.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= statement.values.length) throw new Error(`no value for $${n}`);
    const v = statement.values[i];
    if (typeof v === 'string') return escapeLiteral(v);
    if (typeof v === 'bigint' || (typeof v === 'number' && Number.isFinite(v))) return `(${String(v)})`;
    throw new Error(`cannot write a ${typeof v} into a COPY statement`);
  });
}
