import type { ReplySummary } from '../../../lib/contract';
import {
  findDirectConversations,
  findRefusedPairs,
  findReplyTargets,
  findStored,
  findUploads,
  freshMessageRow,
  lockUsers,
  toMessageRow,
  toReplySummary,
  toUploadRow,
  writeBatch,
  type FreshRow,
} from './message-batch-sql';
import { toStoredMessage, type NewMessage, type StoredMessage } from './message-payload';
import type { Db } from '../engine/open-database';
import { NO_ROWS, scriptTransaction, type Row } from '../engine/script-transaction';

/**
 * Why one message of a batch was not stored: its recipient does not exist or is inactive (or is
 * the sender), its attachment is not an upload of the sender's, the sender no longer exists or is inactive, or
 * the sender may not message the recipient (a block either way, or the recipient's "who can
 * message me" setting for a new conversation; one kind, so the refusal never says which), or the
 * message it answers is not one of this conversation's that the sender still sees (unknown,
 * someone else's and hidden alike).
 */
export type Refusal = 'recipient' | 'attachment' | 'sender' | 'not_allowed' | 'reply_to';

export type BatchOutcome = { stored: StoredMessage } | { refused: Refusal };

/**
 * A direct conversation as the batch numbers its messages: its id (null until this batch creates
 * it), newest seq, number of messages and each person's own number of them.
 */
interface Head {
  id: number | null;
  lastSeq: number;
  messageCount: number;
  sent: Map<number, number>;
}

/** `fresh`: the message's index in the rows inserted; `repeat`: a later send of the same key. */
type Plan = BatchOutcome | { fresh: number; repeat: boolean };

const keyOf = (senderId: number, clientId: string) => `${senderId}:${clientId}`;
const pairOf = (senderId: number, recipientId: number) => `${senderId}>${recipientId}`;
/** A pair's direct conversation: its two people, the smaller id first. */
const directOf = (a: number, b: number) => ({ low: Math.min(a, b), high: Math.max(a, b) });
const directKey = ({ low, high }: { low: number; high: number }) => `${low}:${high}`;

/**
 * Stores a batch of messages in ONE transaction with a fixed handful of statements, whatever its
 * size, and answers each message on its own (same order as `batch`): stored, as a new row or as
 * the row an earlier send with the same (sender, client_id) left (in the database or earlier in
 * this batch: a repeat changes nothing), or refused.
 *
 * Every user involved is locked first, in id order in one statement: batches on several
 * processes sharing one Postgres therefore queue on their common users and cannot deadlock, and
 * each conversation's seqs are taken and committed in one order (its heads' writers all hold its
 * people's locks), so a seq is never visible before a smaller one of the same conversation. In
 * the same round trip, one query finds the pairs already
 * stored (a statement of its own, so it sees what another process's batch on the same users
 * committed while this one waited for the locks), one finds the pairs that may not talk (blocks,
 * "who can message me"; findRefusedPairs), one reads the pairs' direct conversations and one the
 * attachments. Each conversation's seqs and ordinals are counted in JS from the heads read under
 * the locks, then ONE statement writes everything and the transaction commits, in
 * a second round trip (message-batch-sql.ts has the statements). Raw SQL on purpose: this is the
 * hot path, and per statement drizzle's query builder cost more CPU than the database.
 */
export async function storeMessages(db: Db, batch: readonly NewMessage[]): Promise<BatchOutcome[]> {
  if (batch.length === 0) return [];
  const userIds = [...new Set(batch.flatMap((message) => [message.senderId, message.recipientId]))];
  // The uploads the batch names, to check them; a stored row comes with its own (findStored).
  const attachmentIds = [...new Set(batch.flatMap((message) => (message.attachmentId ? [message.attachmentId] : [])))];
  const pairs = new Map(batch.map((message) => [pairOf(message.senderId, message.recipientId), message]));
  const directs = new Map(batch.map((message) => directOf(message.senderId, message.recipientId)).map((pair) => [directKey(pair), pair]));
  const answered = batch.flatMap((message) => (message.replyToId ? [{ senderId: message.senderId, replyToId: message.replyToId }] : []));
  return scriptTransaction(db, async (tx) => {
    const [locked = [], found = [], refusedPairs = [], headRows = [], targetRows = [], uploadRows = []] = await tx.run([
      lockUsers(userIds),
      findStored(batch),
      findRefusedPairs([...pairs.values()]),
      findDirectConversations([...directs.values()]),
      // Always a statement, so the uploads keep their place in the answer.
      answered.length > 0 ? findReplyTargets(answered) : NO_ROWS,
      ...(attachmentIds.length > 0 ? [findUploads(attachmentIds)] : []),
    ]);
    // A reply's target as the answering sender may quote it: same pair, not hidden by them.
    const targets = new Map<string, { pair: string; summary: ReplySummary | null }>();
    for (const row of targetRows) {
      if (row.hidden === true) continue;
      targets.set(keyOf(Number(row.answering_sender_id), String(row.id)), {
        pair: directKey(directOf(Number(row.sender_id), Number(row.recipient_id))),
        summary: toReplySummary(row.reply),
      });
    }
    const replies = new Map<number, ReplySummary | null>();
    const refused = new Set(refusedPairs.map((row) => pairOf(Number(row.sender_id), Number(row.recipient_id))));
    const active = new Set(locked.flatMap((row) => (row.is_active === true ? [Number(row.id)] : [])));
    const earlier = new Map(
      found.map((row) => [
        keyOf(Number(row.sender_id), row.client_id as string),
        {
          message: toMessageRow(row),
          upload: row.upload ? toUploadRow(row.upload as Row) : null,
          reply: toReplySummary(row.reply),
          place: { conversationId: Number(row.conversation_id), seq: Number(row.seq), version: Number(row.version) },
        },
      ]),
    );
    // Each pair's direct conversation, its newest seq, its number of messages and each person's
    // own number there; a pair without one gets it with its first message.
    const heads = new Map<string, Head>(
      headRows.map((row) => [
        directKey({ low: Number(row.direct_low), high: Number(row.direct_high) }),
        {
          id: Number(row.id),
          lastSeq: Number(row.last_seq),
          messageCount: Number(row.message_count),
          sent: new Map([
            [Number(row.direct_low), Number(row.low_sent)],
            [Number(row.direct_high), Number(row.high_sent)],
          ]),
        },
      ]),
    );
    const uploadsById = new Map(uploadRows.map((row) => toUploadRow(row)).map((row) => [row.id, row]));

    const fresh: FreshRow[] = [];
    const freshByKey = new Map<string, number>();
    const plans = batch.map((message): Plan => {
      const key = keyOf(message.senderId, message.clientId);
      const stored = earlier.get(key);
      if (stored) return { stored: toStoredMessage(stored, stored.message.recipientId ?? message.recipientId, false) };
      const first = freshByKey.get(key);
      if (first !== undefined) return { fresh: first, repeat: true };
      // A deleted (or deactivated) account sends nothing: a batch that waited for the lock its
      // deletion held finds the tombstone here.
      if (!active.has(message.senderId)) return { refused: 'sender' };
      if (!active.has(message.recipientId) || message.recipientId === message.senderId) return { refused: 'recipient' };
      if (refused.has(pairOf(message.senderId, message.recipientId))) return { refused: 'not_allowed' };
      const attachmentId = message.attachmentId ?? null;
      // Someone else's upload is refused like a missing one: ids are capabilities, not to be probed.
      if (attachmentId !== null && uploadsById.get(attachmentId)?.ownerId !== message.senderId) {
        return { refused: 'attachment' };
      }
      const pair = directKey(directOf(message.senderId, message.recipientId));
      const replyToId = message.replyToId ?? null;
      if (replyToId !== null) {
        const target = targets.get(keyOf(message.senderId, String(replyToId)));
        if (!target || target.pair !== pair) return { refused: 'reply_to' };
        replies.set(fresh.length, target.summary);
      }
      let head = heads.get(pair);
      if (!head) heads.set(pair, (head = { id: null, lastSeq: 0, messageCount: 0, sent: new Map() }));
      head.lastSeq += 1;
      head.messageCount += 1;
      const senderOrdinal = (head.sent.get(message.senderId) ?? 0) + 1;
      head.sent.set(message.senderId, senderOrdinal);
      freshByKey.set(key, fresh.length);
      fresh.push({
        i: fresh.length,
        sender_id: message.senderId,
        recipient_id: message.recipientId,
        client_id: message.clientId,
        text: message.text,
        attachment_id: attachmentId,
        reply_to_id: replyToId,
        conversation_id: head.id,
        seq: head.lastSeq,
        ordinal: head.messageCount,
        sender_ordinal: senderOrdinal,
      });
      return { fresh: fresh.length - 1, repeat: false };
    });
    if (fresh.length === 0) {
      await tx.commit([]);
      return plans as BatchOutcome[];
    }

    const [inserted = []] = await tx.commit([writeBatch(fresh)]);
    const insertedByKey = new Map(inserted.map((row) => [keyOf(Number(row.sender_id), row.client_id as string), row]));
    const storedFresh = fresh.map((row) => {
      const returned = insertedByKey.get(keyOf(row.sender_id, row.client_id));
      if (!returned) throw new Error('inserted message not returned');
      const upload = row.attachment_id === null ? null : (uploadsById.get(row.attachment_id) ?? null);
      // Its conversation as the statement found or created it; new, so its version is its seq.
      const place = { conversationId: Number(returned.conversation_id), seq: row.seq, version: row.seq };
      return toStoredMessage({ message: freshMessageRow(row, returned), upload, reply: replies.get(row.i) ?? null, place }, row.recipient_id, true);
    });
    return plans.map((plan): BatchOutcome => {
      if (!('fresh' in plan)) return plan;
      const stored = storedFresh[plan.fresh]!;
      return { stored: plan.repeat ? { ...stored, created: false } : stored };
    });
  });
}
