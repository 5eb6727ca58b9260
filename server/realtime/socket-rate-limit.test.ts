import { describe, expect, it } from 'vitest';
import { syncReads } from './socket-rate-limit';

describe('syncReads', () => {
  it('prices a page by the reads of 100 items its limit allows', () => {
    expect([1, 100, 101, 250, 500].map((limit) => syncReads({ after: 0, limit }))).toEqual([1, 1, 2, 3, 5]);
    expect(syncReads({ after: 0 })).toBe(5);
  });

  it('prices a payload the handler will refuse as the largest page', () => {
    for (const payload of [undefined, null, 'sync', 7, [], { limit: 0 }, { limit: 501 }, { limit: 2.5 }, { limit: '1e2' }, { limit: Number.NaN }]) {
      expect(syncReads(payload)).toBe(5);
    }
  });
});
