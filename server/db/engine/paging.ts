/** Keyset paging: fetch one row more than the page to learn whether another page follows. */
export interface KeysetPage<T, K> {
  results: T[];
  /** Keyset values of the last row returned, when more rows follow; null on the last page. */
  next: K | null;
}

export function toKeysetPage<T, K>(rows: T[], limit: number, keyOf: (row: T) => K): KeysetPage<T, K> {
  const results = rows.slice(0, limit);
  const last = results[results.length - 1];
  return { results, next: rows.length > limit && last !== undefined ? keyOf(last) : null };
}
