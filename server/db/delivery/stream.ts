// Reading an account's messages (sent and received) by its own seqs, for the data export
// (docs/DELIVERY.md). (Protocol 1's `sync` read its changes beside them; protocol 2's catch-up
// reads by conversation: conversation-stream.ts.)
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { MessagePayload } from '../../../lib/contract';
import { attachmentOf, messageColumns, toMessagePayload } from './message-payload';
import { notHiddenFor } from '../messages';
import type { Db } from '../engine/open-database';
import { preparedQuery } from '../engine/prepared-query';
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

/**
 * Items one read of a catch-up or export page takes at most, and the unit its price is counted in
 * (realtime/socket-rate-limit.ts). A page of 500 read at once held PGlite's one connection for a
 * tenth of a second (far longer on a busy machine), and every other account's next query waited
 * behind it; in reads of 100 the others take their turns in between (db/account-turns.ts).
 */
export const STREAM_READ_ITEMS = 100;

/**
 * The account's messages with seq > after, oldest first, at most `limit`, all of them (those it
 * deleted for itself included: the data export is everything the server holds about it).
 */
export async function listMessagesAfter(db: Db, userId: number, after: number, limit: number): Promise<{ messages: MessagePayload[]; hasMore: boolean }> {
  const [account] = await db.select({ readReceipts: users.readReceipts }).from(users).where(eq(users.id, userId));
  const found = await messagesAfter(db, userId, after, limit, account?.readReceipts ?? false);
  return { messages: found.slice(0, limit).map((item) => item.payload), hasMore: found.length > limit };
}
