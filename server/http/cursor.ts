// Opaque page cursors: base64url of a JSON array of the keyset values, tagged with the list they
// belong to. Clients pass them back untouched; anything else is a 400, never a query.
import { z } from 'zod';

const MAX_CURSOR_LENGTH = 200;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function encodeCursor(values: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** A `?cursor=` schema whose output is the keyset tuple `keyset` accepts. */
function cursorParam<T extends z.ZodType>(keyset: T) {
  return z.string().transform((raw, ctx): z.output<T> => {
    const parsed = BASE64URL.test(raw) && raw.length <= MAX_CURSOR_LENGTH ? keyset.safeParse(decodeJson(raw)) : null;
    if (parsed?.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: 'Invalid cursor.' });
    return z.NEVER;
  });
}

function decodeJson(raw: string): unknown {
  try {
    return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

// Each keyset value is held to what it is compared with in SQL, or a forged cursor is a 500:
// message ids are bigint (JS numbers are exact up to 2^53), user ids int4, and a follow's time a
// date that toISOString() writes with a four-digit year (past 9999 it writes "+010000-…", which
// Postgres refuses; past 8.64e15 ms a Date is invalid and toISOString() throws).
const messageId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const userId = z.number().int().positive().max(2_147_483_647);
const LAST_MS_OF_9999 = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const followedAtMs = z.number().int().nonnegative().max(LAST_MS_OF_9999);

// Keysets: conversations (last message id), thread pages (seq), follow lists (time, user id).
/** Search in messages, newest first: keyset by message id, its own tag so no other list's cursor fits. */
export const messageSearchCursor = cursorParam(z.tuple([z.literal('s'), messageId]));
export const conversationCursor = cursorParam(z.tuple([z.literal('c'), messageId]));
/** Thread pages: by the conversation's seq, 'o' older than it, 'w' newer than it. */
export const conversationThreadCursor = cursorParam(z.union([z.tuple([z.literal('o'), messageId]), z.tuple([z.literal('w'), messageId])]));
export const followCursor = cursorParam(z.tuple([z.literal('f'), followedAtMs, userId]));
