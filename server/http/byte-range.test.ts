import { describe, expect, it } from 'vitest';
import { parseRange } from './byte-range';

const range = (start: number, end: number) => ({ kind: 'range', range: { start, end } });

describe('parseRange', () => {
  it('reads a-b, a- and -n, an end past the file meaning its end', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual(range(0, 99));
    expect(parseRange('bytes=500-', 1000)).toEqual(range(500, 999));
    expect(parseRange('bytes=-100', 1000)).toEqual(range(900, 999));
    expect(parseRange('bytes=-5000', 1000)).toEqual(range(0, 999));
    expect(parseRange('bytes=990-5000', 1000)).toEqual(range(990, 999));
    expect(parseRange('bytes=999-999', 1000)).toEqual(range(999, 999));
    expect(parseRange('Bytes = 1 - 2', 1000)).toEqual(range(1, 2));
  });

  it('answers unsatisfiable for a range that starts past the end, or an empty suffix', () => {
    expect(parseRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=1000-2000', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=99999999999999999999-', 1000)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores what it does not serve: no header, another unit, malformed, reversed or several ranges', () => {
    for (const header of [undefined, 'items=0-1', 'bytes=', 'bytes=-', 'bytes=a-b', 'bytes=5-1', 'bytes=0-1,5-6', 'bytes=1.5-2', '0-1']) {
      expect(parseRange(header, 1000)).toEqual({ kind: 'all' });
    }
  });
});
