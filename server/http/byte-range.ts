import type { ByteRange } from '../storage/file-storage';

/** What a Range header asks of a file: all of it, one range, or nothing it has (416). */
export type RangeRequest = { kind: 'all' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' };

const ALL: RangeRequest = { kind: 'all' };
const ONE_RANGE = /^bytes=(\d*)-(\d*)$/i;

/**
 * RFC 9110 §14.2 for one `bytes=` range of a file of `size` bytes: `a-b`, `a-` and the suffix `-n`,
 * an end past the file meaning its end. A header we do not serve is ignored, as the RFC allows,
 * and the whole file sent: another unit, a malformed one, and several ranges (browsers resume
 * media with one; a multipart/byteranges answer would buy nothing).
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return ALL;
  const match = ONE_RANGE.exec(header.replace(/\s+/g, ''));
  if (!match) return ALL;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return ALL;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return ALL; // invalid, so ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', range: { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) } };
}
