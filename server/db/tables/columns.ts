// Columns several tables share.
import { timestamp } from 'drizzle-orm/pg-core';

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
// Millisecond precision where the value is part of a keyset cursor: JS Dates round-trip it exactly.
export const createdAtMs = () => timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow();
