// Opaque page cursors: base64url of a JSON array of the keyset values, tagged with the list they
// belong to. Clients pass them back untouched; anything else is a 400, never a query.
import { z } from 'zod';

const MAX_CURSOR_LENGTH = 200;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function encodeCursor(values: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** A `?cursor=` schema whose output is the keyset tuple `keyset` accepts. */
export function cursorParam<T extends z.ZodType>(keyset: T) {
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

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Keysets: thread pages (message id), conversations (last message id), follow lists (time, user id). */
export const threadCursor = cursorParam(z.tuple([z.literal('m'), id]));
export const conversationCursor = cursorParam(z.tuple([z.literal('c'), id]));
export const followCursor = cursorParam(z.tuple([z.literal('f'), z.number().int().nonnegative(), id]));
