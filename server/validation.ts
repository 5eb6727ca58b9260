import type { z } from 'zod';

type Path = readonly PropertyKey[];
const fieldPrefix = (path: Path) => {
  const field = path.map(String).join('.');
  return field ? `${field}: ` : '';
};

/** zod issues as "<field>: <message>" lines (non_field_errors, docs/API.md); whole-payload problems have no field. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${key}: Unknown field.`);
    return [`${fieldPrefix(issue.path)}${issue.message}`];
  });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why Postgres cannot store this text as given, or null when it can. */
function unstorable(text: string): string | null {
  // Postgres text cannot hold U+0000: the query fails.
  if (text.includes('\u0000')) return 'Must not contain the NUL character.';
  // Not UTF-8 encodable: PGlite then fails the query (or node-postgres turns it into U+FFFD).
  if (LONE_SURROGATE.test(text)) return 'Must be valid Unicode text.';
  return null;
}

/**
 * One "<field>: …" line per string in a validated payload that the database cannot store as
 * given, so callers refuse it as the client's fault (400) instead of failing in a query (500).
 */
export function unstorableTextIssues(value: unknown, path: Path = []): string[] {
  if (typeof value === 'string') {
    const problem = unstorable(value);
    return problem ? [`${fieldPrefix(path)}${problem}`] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item: unknown, index) => unstorableTextIssues(item, [...path, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => unstorableTextIssues(item, [...path, key]));
  }
  return [];
}
