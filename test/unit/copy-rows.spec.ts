import { inlineParameters, TextRowsFromBinaryCopy } from '../../src/platform/database/copy-rows';

/** A binary COPY stream (PostgreSQL's format) of one text column, built by hand. */
function binaryCopy(rows: (string | null)[], options: { headerExtension?: Buffer; columns?: number } = {}): Buffer {
  const ext = options.headerExtension ?? Buffer.alloc(0);
  const header = Buffer.alloc(19);
  Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1').copy(header);
  header.writeUInt32BE(ext.length, 15);
  const parts = [header, ext];
  for (const row of rows) {
    const fields = options.columns ?? 1;
    const head = Buffer.alloc(2);
    head.writeInt16BE(fields);
    parts.push(head);
    for (let f = 0; f < fields; f++) {
      const bytes = row === null ? null : Buffer.from(row, 'utf8');
      const len = Buffer.alloc(4);
      len.writeInt32BE(bytes ? bytes.length : -1);
      parts.push(len, ...(bytes ? [bytes] : []));
    }
  }
  const end = Buffer.alloc(2);
  end.writeInt16BE(-1);
  parts.push(end);
  return Buffer.concat(parts);
}

/** Feeds `data` cut at `cuts`, collecting everything the reader joins. */
function readAll(data: Buffer, cuts: number[], bufferSize = 64): string {
  const reader = new TextRowsFromBinaryCopy(Buffer.from(','), bufferSize);
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, data.length]) {
    reader.push(data.subarray(from, cut));
    from = cut;
    for (let b = reader.take(bufferSize); b; b = reader.take(bufferSize)) out.push(Buffer.from(b));
  }
  reader.finish();
  const rest = reader.take();
  if (rest) out.push(rest);
  return Buffer.concat(out).toString('utf8');
}

describe('TextRowsFromBinaryCopy', () => {
  const rows = ['{"a":1}', '', '{"name":"Salon \\"Privé\\" 百家乐"}', 'x'.repeat(300), '{"b":[1,2]}'];
  const data = binaryCopy(rows);
  const joined = rows.join(',');

  it('joins the rows with the separator, however the stream is cut in two', () => {
    for (let cut = 0; cut <= data.length; cut++) expect(readAll(data, [cut])).toBe(joined);
  });

  it('joins the rows when every byte arrives alone, and with a header extension', () => {
    const withExt = binaryCopy(rows, { headerExtension: Buffer.from([1, 2, 3, 4, 5]) });
    expect(
      readAll(
        withExt,
        Array.from({ length: withExt.length - 1 }, (_, i) => i + 1),
      ),
    ).toBe(joined);
  });

  it('collects rows into buffers of the given size, a row larger than one in a buffer of its own size', () => {
    const reader = new TextRowsFromBinaryCopy(Buffer.from(','), 16);
    const data3 = binaryCopy(['0123456789', 'abcdefghijklmnopqrstuvwxyz', '!']);
    reader.push(data3.subarray(0, 19 + 16));
    expect(reader.take(16)).toBeNull(); // 10 bytes so far
    reader.push(data3.subarray(19 + 16, 19 + 16 + 32));
    expect(reader.take(16)?.toString()).toBe('0123456789,abcdefghijklmnopqrstuvwxyz');
    reader.push(data3.subarray(19 + 16 + 32));
    reader.finish();
    expect(reader.take()?.toString()).toBe(',!');
    expect(reader.rowCount).toBe(3);
  });

  it('an empty result is no bytes at all', () => {
    expect(readAll(binaryCopy([]), [])).toBe('');
  });

  it('refuses what is not one text column per row, or data cut short or running past its end', () => {
    expect(() => readAll(binaryCopy(['a', null]), [])).toThrow('NULL');
    expect(() => readAll(binaryCopy(['a'], { columns: 2 }), [])).toThrow('2 columns');
    expect(() => readAll(Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\x01', 'latin1'), Buffer.alloc(8)]), [])).toThrow('not binary COPY');
    const data2 = binaryCopy(['abc']);
    expect(() => readAll(data2.subarray(0, data2.length - 3), [])).toThrow('ended inside a row');
    expect(() => readAll(Buffer.concat([data2, Buffer.from([0, 1])]), [])).toThrow('after its end');
  });
});

describe('inlineParameters', () => {
  it('writes strings as quoted literals and numbers as numbers, every placeholder by its number', () => {
    expect(inlineParameters({ text: 'SELECT $1::date, $2, $10, $3', values: ['2026-07-01', -5, 7n, 0, 0, 0, 0, 0, 0, "O'Brien \\ x"] })).toBe(
      "SELECT '2026-07-01'::date, (-5),  E'O''Brien \\\\ x', (7)", // pg's escapeLiteral puts a space before E''
    );
  });

  it('refuses a missing value and values that are not strings or finite numbers', () => {
    expect(() => inlineParameters({ text: 'SELECT $2', values: ['a'] })).toThrow('no value for $2');
    expect(() => inlineParameters({ text: 'SELECT $1', values: [NaN] })).toThrow('cannot write');
    expect(() => inlineParameters({ text: 'SELECT $1', values: [{}] })).toThrow('cannot write');
    expect(() => inlineParameters({ text: 'SELECT $1', values: [null] })).toThrow('cannot write');
  });
});
