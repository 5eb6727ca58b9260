// Reading an account's stream by seq: its messages (sent and received) and the changes to them
// (message_events), for `sync` and the data export (docs/DELIVERY.md).
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { MessageChange, MessagePayload } from '../../../lib/contract';
import { toMessageChange } from './change-stream';
import { attachmentOf, messageColumns, toMessagePayload } from './message-payload';
import { notHiddenFor } from '../messages';
import type { Db } from '../engine/open-database';
import { preparedQuery } from '../engine/prepared-query';
import { rows } from '../engine/raw-rows';
import { messages, uploads, users } from '../schema';

const peer = alias(users, 'peer');

interface StreamMessage {
  seq: number;
  payload: MessagePayload;
  /** The account deleted it for itself. */
  hidden: boolean;
}

/**
 * The account's messages with seq > after, oldest first, at most limit + 1: two range scans, one
 * per side's unique (user, seq) index, merged (no sort of the backlog). `viewerReceipts`: the
 * account has read receipts on; a sent message's receipt also needs its recipient's.
 */
async function messagesAfter(db: Db, userId: number, after: number, limit: number, viewerReceipts: boolean): Promise<StreamMessage[]> {
  const values = { user: userId, after, rows: limit + 1 };
  const [sent, received] = await Promise.all([SENT_AFTER(db).execute(values), RECEIVED_AFTER(db).execute(values)]);
  return [...sent, ...received]
    .map((row) => {
      const payload = toMessagePayload(row, userId, viewerReceipts && row.peerReceipts);
      return { seq: payload.seq, payload, hidden: row.hidden };
    })
    .sort((a, b) => a.seq - b.seq);
}

/** One side's messages of an account after a seq, in seq order: prepared, as every sync and export reads them. */
const sideAfter = (userColumn: PgColumn, seqColumn: PgColumn, peerColumn: PgColumn, name: string) =>
  preparedQuery((db) =>
    db
      .select({
        ...messageColumns,
        peerReceipts: peer.readReceipts,
        hidden: sql<boolean>`not ${notHiddenFor(sql.placeholder('user'))}`,
      })
      .from(messages)
      .innerJoin(peer, eq(peer.id, peerColumn))
      .leftJoin(uploads, attachmentOf)
      .where(and(eq(userColumn, sql.placeholder('user')), gt(seqColumn, sql.placeholder('after'))))
      .orderBy(asc(seqColumn))
      .limit(sql.placeholder('rows'))
      .prepare(name),
  );
const SENT_AFTER = sideAfter(messages.senderId, messages.senderSeq, messages.recipientId, 'stream_sent_after');
const RECEIVED_AFTER = sideAfter(messages.recipientId, messages.recipientSeq, messages.senderId, 'stream_received_after');

interface StreamChange {
  seq: number;
  change: MessageChange;
  /** A read receipt that may not be shown now: the account or the reader turned receipts off. */
  hidden: boolean;
}

/** The account's changes with seq > after, oldest first, at most limit + 1: one range scan of message_events' key. */
async function changesAfter(db: Db, userId: number, after: number, limit: number, viewerReceipts: boolean): Promise<StreamChange[]> {
  const found = await rows<{ seq: string | number; kind: string; message_id: string | number; state: Record<string, unknown>; peer_receipts: boolean | null }>(
    db,
    sql`select e.seq, e.kind, e.message_id, e.state, p.read_receipts as peer_receipts
      from message_events e
      left join users p on e.kind = 'seen' and p.id = (e.state->>'peer_id')::int
      where e.user_id = ${userId} and e.seq > ${after}
      order by e.seq limit ${limit + 1}`,
  );
  return found.map((row) => {
    const change = toMessageChange({ seq: Number(row.seq), kind: row.kind, messageId: Number(row.message_id), state: row.state });
    return { seq: change.seq, change, hidden: change.kind === 'seen' && !(viewerReceipts && row.peer_receipts === true) };
  });
}

export interface StreamPage {
  messages: MessagePayload[];
  changes: MessageChange[];
  /** Every seq in (after, through] is accounted for: returned, or left out on purpose. */
  through: number;
  lastSeq: number;
  hasMore: boolean;
}

/**
 * Items one round trip of a sync page reads at most. A page of 500 read at once held PGlite's one
 * connection for a tenth of a second (far longer on a busy machine), and every other account's
 * next query waited behind it; in reads of 100 the others take their turns in between
 * (db/account-turns.ts). The page is the same as the client asking for pages of 100 in a row.
 */
export const STREAM_READ_ITEMS = 100;

/**
 * What `sync` answers: the account's stream after `after`, at most `limit` items, messages and
 * changes each in seq order, without the messages it deleted for itself and the read receipts it
 * may no longer see (their seqs are still accounted for by `through`), read STREAM_READ_ITEMS at a
 * time, each read taking up where the last one's `through` ended. Null for no such account.
 */
export async function listStreamAfter(db: Db, userId: number, after: number, limit: number): Promise<StreamPage | null> {
  const first = await readStreamAfter(db, userId, after, Math.min(limit, STREAM_READ_ITEMS));
  if (!first) return null;
  const { messages, changes } = first;
  let { through, lastSeq, hasMore } = first;
  // Items above a read's last_seq come again in the next (its through stops at last_seq): once each.
  const seen = new Set<number>([...messages, ...changes].map((item) => item.seq));
  for (let left = limit - Math.min(limit, STREAM_READ_ITEMS); hasMore && left > 0; left -= Math.min(left, STREAM_READ_ITEMS)) {
    const next = await readStreamAfter(db, userId, through, Math.min(left, STREAM_READ_ITEMS));
    if (!next) return null;
    for (const message of next.messages) if (!seen.has(message.seq)) messages.push(message);
    for (const change of next.changes) if (!seen.has(change.seq)) changes.push(change);
    for (const item of [...next.messages, ...next.changes]) seen.add(item.seq);
    ({ through, lastSeq, hasMore } = next);
  }
  return { messages, changes, through, lastSeq, hasMore };
}

/**
 * One read of the stream: at most `limit` items after `after`. `last_seq` is read first:
 * everything up to it was committed before the scans began, so it is a cursor that misses nothing;
 * items above it are returned too and the client notes them one by one.
 */
async function readStreamAfter(db: Db, userId: number, after: number, limit: number): Promise<StreamPage | null> {
  const [account] = await db.select({ lastSeq: users.lastSeq, readReceipts: users.readReceipts }).from(users).where(eq(users.id, userId));
  if (!account) return null;
  const [found, changed] = await Promise.all([
    messagesAfter(db, userId, after, limit, account.readReceipts),
    changesAfter(db, userId, after, limit, account.readReceipts),
  ]);
  // Each scan returned its lowest limit + 1 items, so the lowest `limit` of them all are here.
  const items = [...found, ...changed].sort((a, b) => a.seq - b.seq);
  const hasMore = items.length > limit;
  const page = items.slice(0, limit);
  const through = hasMore ? Math.min(page[page.length - 1]!.seq, account.lastSeq) : account.lastSeq;
  return {
    messages: page.flatMap((item) => ('payload' in item && !item.hidden ? [item.payload] : [])),
    changes: page.flatMap((item) => ('change' in item && !item.hidden ? [item.change] : [])),
    through: Math.max(through, after),
    lastSeq: account.lastSeq,
    hasMore,
  };
}

/**
 * The account's messages with seq > after, oldest first, at most `limit`, all of them (those it
 * deleted for itself included: the data export is everything the server holds about it).
 */
export async function listMessagesAfter(db: Db, userId: number, after: number, limit: number): Promise<{ messages: MessagePayload[]; hasMore: boolean }> {
  const [account] = await db.select({ readReceipts: users.readReceipts }).from(users).where(eq(users.id, userId));
  const found = await messagesAfter(db, userId, after, limit, account?.readReceipts ?? false);
  return { messages: found.slice(0, limit).map((item) => item.payload), hasMore: found.length > limit };
}
