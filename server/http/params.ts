// Path and query parameters arrive as strings; these schemas turn them into checked values.
// Failures become 400 {non_field_errors} through parseBody, like body problems.
import { z } from 'zod';

const MAX_USER_ID = 2_147_483_647;

/** A decimal integer string (no sign, no leading zeros, no exponent) as a number within [min, max]. */
export const intString = (min: number, max: number) =>
  z
    .string()
    .regex(/^(0|[1-9]\d{0,15})$/, 'Must be a whole number.')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const userIdString = intString(1, MAX_USER_ID);

/** `?limit=` between 1 and max, `fallback` when absent. */
export const limitParam = (fallback: number, max: number) => intString(1, max).default(fallback);

export const userIdParams = z.object({ id: userIdString });

/** A conversation's id in a path (`/api/c/:conversationId`). */
export const conversationIdParams = z.object({ conversationId: intString(1, Number.MAX_SAFE_INTEGER) });
