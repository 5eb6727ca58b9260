// Columns several tables share.
import { customType, timestamp } from 'drizzle-orm/pg-core';

/** Postgres full-text words; drizzle has no built-in type for them. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
// Millisecond precision where the value is part of a keyset cursor: JS Dates round-trip it exactly.
export const createdAtMs = () => timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow();
