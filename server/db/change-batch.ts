// Every change a person makes to messages (reactions, edits, unsending, deleting for oneself, and
// reading a conversation) goes to the database in batches, as sends do: one transaction per batch,
// two round trips whatever its size, each change written into the stream of every account it
// concerns (docs/DELIVERY.md, "Changes to messages").
import { MAX_REACTIONS_PER_PERSON, type ChangeRefusal, type MessageChange, type Reaction } from '../../lib/contract';
import {
  NOW,
  addReaction,
  appendEvents,
  editText,
  findChangeMessages,
  findUnread,
  hideMessage,
  lockChangeUsers,
  markRead,
  readConversationRows,
  removeReaction,
  removeUpload,
  setReactions,
  takeUnread,
  unreadTotals,
  unsendMessage,
  type EventRow,
  type MessageTarget,
  type VersionRow,
} from './change-batch-sql';
import { toMessageChange, type ChangeFor } from './change-stream';
import { createGroupWriter, type GroupOutcome, type GroupWriter } from './group-writer';
import { toMessageRow, toUploadRow } from './message-batch-sql';
import { toMessagePayload, type MessageWithUpload } from './message-payload';
import type { Db } from './open-database';
import type { MessageRow } from './schema';
import { scriptTransaction, type Row, type Statement } from './script-transaction';

/** How long after sending its sender may edit a message, and unsend it (server/config.ts). */
export interface MessageWindows {
  editWindowMs: number;
  unsendWindowMs: number;
}

/** One change as asked for; `windowMs`: how long after sending its sender may still do it. */
export type ChangeRequest =
  | { kind: 'react'; actorId: number; messageId: number; emoji: string; add: boolean }
  | { kind: 'edit'; actorId: number; messageId: number; text: string; windowMs: number }
  | { kind: 'unsend'; actorId: number; messageId: number; windowMs: number }
  | { kind: 'hide'; actorId: number; messageId: number }
  | { kind: 'read'; actorId: number; peerId: number };

/** Why a change was refused (the contract has each one's sentence). */
export type { ChangeRefusal };

export type AccountChange = MessageChange & { userId: number };

export type ChangeOutcome =
  | { refused: ChangeRefusal }
  | {
      /** One per account concerned, each at that account's seq; empty when it was already so. */
      changes: AccountChange[];
      /** Accounts whose unread total moved (and a reader's, always), with the total now (for message_count). */
      unreadTotals: Map<number, number>;
      /** A file no message carries any more: removed from storage once the transaction committed. */
      removedStorageKey?: string;
    };

/** An account as the batch locked it. */
interface Account {
  lastSeq: number;
  active: boolean;
  deleted: boolean;
  readReceipts: boolean;
}

/** A message as its actor may see it, with what the rules need, read under the locks. */
interface Found {
  message: MessageRow;
  hidden: boolean;
  blocked: boolean;
  peer: { id: number; active: boolean; deleted: boolean; readReceipts: boolean };
  reactionRows: ReactionRow[];
  storageKey: string | null;
  /** Another message carries its upload. */
  carried: boolean;
  /** The recipient's unread counter with the sender. */
  recipientUnread: number;
  /** For `hide`: the conversation's newest other message the actor sees. */
  preview: MessageWithUpload | null;
}

/** One person's reaction; `at` in ms (the column's precision). */
export interface ReactionRow {
  emoji: string;
  userId: number;
  at: number;
}

/** What one change writes, and what it answers once committed. */
interface Plan {
  writes: Statement[];
  events: ChangeFor[];
  /** The changed message's sender, for a change to its own state (its versions: one per side). */
  senderId?: number;
  /** Accounts whose unread total to answer with. */
  totals: number[];
  removedStorageKey?: string;
}

/** What a planned change answers: refused, already so, or the plan to carry out. */
type Decision = { refused: ChangeRefusal } | Plan;

const UNCHANGED: Plan = { writes: [], events: [], totals: [] };

/** The kinds that change one message's own state, so a client compares them with its version. */
const VERSIONED = new Set<MessageChange['kind']>(['reaction', 'edit', 'unsend']);

const pairKey = (a: number, b: number) => `pair:${Math.min(a, b)}:${Math.max(a, b)}`;

/**
 * Applies the changes, answering each in order. Changes to one conversation (or to messages
 * sharing one upload) go in separate transactions, in the order asked: each is decided against
 * the state the one before it left, and a batch never has to compose two of them in memory.
 */
export async function applyChanges(db: Db, requests: readonly ChangeRequest[]): Promise<GroupOutcome<ChangeOutcome>[]> {
  const outcomes: GroupOutcome<ChangeOutcome>[] = new Array(requests.length);
  // The first transaction may fail as a whole: nothing is committed, and the caller (the group
  // writer) tries each change again on its own.
  let waiting = await applyOnce(db, requests, requests.map((_, index) => index), outcomes);
  // Later ones come after a commit whose answers must not be lost: one that fails is tried
  // again change by change, and a change that fails alone is answered failed.
  while (waiting.length > 0) {
    try {
      waiting = await applyOnce(db, requests, waiting, outcomes);
    } catch {
      for (const index of waiting) {
        await applyOnce(db, requests, [index], outcomes).catch((error: unknown) => {
          outcomes[index] = { retry: 'failed', error };
        });
      }
      waiting = [];
    }
  }
  return outcomes;
}

/**
 * One transaction over the changes at `indexes`; returns those left for the next one. First
 * round trip: the clock, every account concerned locked (lowest id first, as a message batch
 * locks them, so neither deadlocks with the other and each account's seqs commit in order), then
 * the messages and unread rows as they stand under those locks. The changes are decided in JS;
 * the second round trip writes them, their stream rows and the unread totals, and commits.
 */
async function applyOnce(db: Db, requests: readonly ChangeRequest[], indexes: readonly number[], outcomes: GroupOutcome<ChangeOutcome>[]): Promise<number[]> {
  const targets: MessageTarget[] = [];
  const reads: { userId: number; peerId: number }[] = [];
  for (const index of indexes) {
    const request = requests[index]!;
    if (request.kind === 'read') reads.push({ userId: request.actorId, peerId: request.peerId });
    else targets.push({ actorId: request.actorId, messageId: request.messageId, preview: request.kind === 'hide' });
  }
  return scriptTransaction(db, async (tx) => {
    const [[clock] = [], lockedRows = [], messageRows = [], unreadRows = []] = await tx.run([
      NOW,
      lockChangeUsers(targets, reads.flatMap(({ userId, peerId }) => [userId, peerId])),
      targets.length > 0 ? findChangeMessages(targets) : 'select 1 where false',
      reads.length > 0 ? findUnread(reads) : 'select 1 where false',
    ]);
    const now = new Date(clock!.now as string | Date);
    const accounts = new Map(lockedRows.map((row) => [Number(row.id), toAccount(row)]));
    const found = new Map(messageRows.map((row) => [`${Number(row.actor_id)}:${Number(row.id)}`, toFound(row)]));
    const unread = new Map(unreadRows.map((row) => [`${Number(row.user_id)}:${Number(row.peer_id)}`, row]));

    const deferred: number[] = [];
    const claimed = new Set<string>();
    const planned: { index: number; plan: Plan }[] = [];
    for (const index of indexes) {
      const request = requests[index]!;
      const context = request.kind === 'read' ? null : (found.get(`${request.actorId}:${request.messageId}`) ?? null);
      const claims = claimsOf(request, context);
      if (claims.some((claim) => claimed.has(claim))) {
        deferred.push(index);
        continue;
      }
      for (const claim of claims) claimed.add(claim);
      const decision =
        request.kind === 'read'
          ? decideRead(request, accounts, unread.get(`${request.actorId}:${request.peerId}`), now)
          : decideMessageChange(request, context, accounts, now);
      if ('refused' in decision) outcomes[index] = decision;
      else planned.push({ index, plan: decision });
    }

    // Seqs in the order asked, from the locked accounts; then one write of every stream row.
    const events: EventRow[] = [];
    const versions = new Map<number, VersionRow>();
    const lastSeqs = new Map<number, number>();
    const numbered = planned.map(({ plan }) =>
      plan.events.map(({ userId, kind, message_id: messageId, ...state }) => {
        const account = accounts.get(userId);
        if (!account) throw new Error(`account ${userId} is not locked by this change`);
        account.lastSeq += 1;
        lastSeqs.set(userId, account.lastSeq);
        events.push({ u: userId, s: account.lastSeq, k: kind, m: messageId, st: state });
        // A change to the message's own state is that side's version of it.
        if (VERSIONED.has(kind) && plan.senderId !== undefined) {
          const version = versions.get(messageId) ?? { m: messageId, sv: null, rv: null };
          if (userId === plan.senderId) version.sv = account.lastSeq;
          else version.rv = account.lastSeq;
          versions.set(messageId, version);
        }
        return { userId, seq: account.lastSeq };
      }),
    );
    const writes = planned.flatMap(({ plan }) => plan.writes);
    const totalsFor = [...new Set(planned.flatMap(({ plan }) => plan.totals))];
    const results = await tx.commit([
      ...writes,
      events.length > 0 ? appendEvents(events, lastSeqs, [...versions.values()]) : 'select 1 where false',
      totalsFor.length > 0 ? unreadTotals(totalsFor) : 'select 1 where false',
    ]);
    const [storedRows = [], totalRows = []] = results.slice(writes.length);

    // What went out is what was stored: the state as jsonb returned it, matched by (account, seq).
    const stored = new Map(storedRows.map((row) => [`${Number(row.user_id)}:${Number(row.seq)}`, row]));
    const totals = new Map(totalRows.map((row) => [Number(row.id), Number(row.total)]));
    planned.forEach(({ index, plan }, position) => {
      outcomes[index] = {
        changes: numbered[position]!.map(({ userId, seq }) => {
          const row = stored.get(`${userId}:${seq}`)!;
          const change = toMessageChange({ seq, kind: row.kind as string, messageId: Number(row.message_id), state: row.state as Record<string, unknown> });
          return { userId, ...change };
        }),
        unreadTotals: new Map(plan.totals.map((id) => [id, totals.get(id) ?? 0])),
        ...(plan.removedStorageKey ? { removedStorageKey: plan.removedStorageKey } : {}),
      };
    });
    return deferred;
  });
}

/**
 * What a change must have to itself in its transaction: its conversation (every kind moves what
 * the conversation shows, and a hidden message's preview reads it), and for unsending, the upload
 * (whether another message still carries it). A message that is not the actor's claims nothing.
 */
function claimsOf(request: ChangeRequest, context: Found | null): string[] {
  if (request.kind === 'read') return [pairKey(request.actorId, request.peerId)];
  if (!context) return [];
  const { message } = context;
  const claims = [pairKey(message.senderId, message.recipientId)];
  if (request.kind === 'unsend' && message.attachmentId !== null) claims.push(`upload:${message.attachmentId}`);
  return claims;
}

/** Still inside its window (ms after it was sent), by the database's clock. */
const withinWindow = (message: MessageRow, now: Date, windowMs: number) => now.getTime() - message.createdAt.getTime() <= windowMs;

/** Both sides' change to a message, each with the other as the conversation. */
function forBoth(message: MessageRow, change: { kind: 'reaction'; reactions: Reaction[] } | { kind: 'edit'; text: string; edited_at: string } | { kind: 'unsend' }): [ChangeFor, ChangeFor] {
  return [
    { userId: message.senderId, message_id: message.id, peer_id: message.recipientId, ...change },
    { userId: message.recipientId, message_id: message.id, peer_id: message.senderId, ...change },
  ];
}

function decideMessageChange(request: Exclude<ChangeRequest, { kind: 'read' }>, context: Found | null, accounts: Map<number, Account>, now: Date): Decision {
  // Someone else's message reads exactly like a missing one, and so does one with a deactivated
  // account (deleted accounts stay: their conversations do) or one the caller deleted for themselves.
  if (!context || !(context.peer.active || context.peer.deleted)) return { refused: 'not_found' };
  if (context.hidden) return request.kind === 'hide' ? UNCHANGED : { refused: 'not_found' };
  const { message, peer } = context;
  const own = message.senderId === request.actorId;
  // For reactions and edits, the two must still be able to talk.
  const mayNotTalk = context.blocked || peer.deleted;
  switch (request.kind) {
    case 'react': {
      if (message.deletedAt) return { refused: 'deleted' };
      if (mayNotTalk) return { refused: 'not_allowed' };
      const { actorId, emoji, add } = request;
      const mine = context.reactionRows.filter((row) => row.userId === actorId);
      const has = mine.some((row) => row.emoji === emoji);
      if (add ? has : !has) return UNCHANGED;
      if (add && mine.length >= MAX_REACTIONS_PER_PERSON) return { refused: 'too_many' };
      const rows = add
        ? [...context.reactionRows, { emoji, userId: actorId, at: now.getTime() }]
        : context.reactionRows.filter((row) => !(row.userId === actorId && row.emoji === emoji));
      const reactions = summariseReactions(rows);
      return {
        writes: [add ? addReaction(message.id, actorId, emoji, now) : removeReaction(message.id, actorId, emoji), setReactions(message.id, reactions)],
        events: forBoth(message, { kind: 'reaction', reactions }),
        senderId: message.senderId,
        totals: [],
      };
    }
    case 'edit': {
      if (!own) return { refused: 'not_yours' };
      if (message.deletedAt) return { refused: 'deleted' };
      if (!withinWindow(message, now, request.windowMs)) return { refused: 'too_late' };
      if (mayNotTalk) return { refused: 'not_allowed' };
      if (request.text.trim() === '' && message.attachmentId === null) return { refused: 'empty' };
      if (request.text === message.text) return UNCHANGED;
      return {
        writes: [editText(message.id, request.text, now)],
        events: forBoth(message, { kind: 'edit', text: request.text, edited_at: now.toISOString() }),
        senderId: message.senderId,
        totals: [],
      };
    }
    case 'unsend': {
      // Its text, attachment and reactions go and the row stays as "Message deleted". Still
      // unread, it stops counting: read from now on (no receipt), one less on the recipient's
      // counter. Its upload goes too when no other message carries it.
      if (!own) return { refused: 'not_yours' };
      if (message.deletedAt) return UNCHANGED;
      if (!withinWindow(message, now, request.windowMs)) return { refused: 'too_late' };
      const unread = message.readAt === null;
      const removing = message.attachmentId !== null && !context.carried;
      const [forSender, forRecipient] = forBoth(message, { kind: 'unsend' });
      return {
        writes: [
          unsendMessage(message.id, now),
          ...(removing ? [removeUpload(message.attachmentId!)] : []),
          ...(unread ? [takeUnread(message.recipientId, message.senderId, 1)] : []),
        ],
        events: [forSender, { ...forRecipient, ...(unread ? { unread_count: Math.max(context.recipientUnread - 1, 0) } : {}) }],
        senderId: message.senderId,
        totals: unread ? [message.recipientId] : [],
        ...(removing && context.storageKey ? { removedStorageKey: context.storageKey } : {}),
      };
    }
    case 'hide': {
      // For the caller only, on all their devices. A received message still unread is read from
      // now on (no receipt): gone from the thread, it could never be read otherwise. The change
      // carries the conversation's newest message the caller still sees, for the list's preview.
      const unread = !own && message.readAt === null;
      const receipts = (accounts.get(request.actorId)?.readReceipts ?? false) && peer.readReceipts;
      return {
        writes: [
          hideMessage(request.actorId, message.id),
          ...(unread ? [markRead(message.id, now), takeUnread(request.actorId, peer.id, 1)] : []),
        ],
        events: [
          {
            userId: request.actorId,
            kind: 'hide',
            message_id: message.id,
            peer_id: peer.id,
            preview: context.preview ? toMessagePayload(context.preview, request.actorId, receipts) : null,
            ...(unread ? { unread_count: Math.max(context.recipientUnread - 1, 0) } : {}),
          },
        ],
        totals: unread ? [request.actorId] : [],
      };
    }
  }
}

/**
 * Marks the peer's unread messages to the reader read and takes exactly that many off the
 * conversation's counter (not "set to 0": a message sent meanwhile stays counted). `read` goes to
 * the reader's devices, and the receipt `seen` to the peer's when both have read receipts on, in
 * which case the messages' seen_at is set too. The reader's unread total is answered either way.
 * A peer whose account is deactivated (deleted ones stay: their conversations do) is not found.
 */
function decideRead(request: Extract<ChangeRequest, { kind: 'read' }>, accounts: Map<number, Account>, unread: Row | undefined, now: Date): Decision {
  const { actorId, peerId } = request;
  const reader = accounts.get(actorId);
  const sender = accounts.get(peerId);
  if (!sender || !(sender.active || sender.deleted)) return { refused: 'not_found' };
  const count = Number(unread?.unread ?? 0);
  if (!reader || count === 0) return { ...UNCHANGED, totals: [actorId] };
  const receipts = reader.readReceipts && sender.readReceipts;
  const upTo = Number(unread!.up_to);
  const readAt = now.toISOString();
  return {
    writes: [readConversationRows(actorId, peerId, now, receipts), takeUnread(actorId, peerId, count)],
    events: [
      { userId: actorId, kind: 'read', message_id: upTo, peer_id: peerId, read_at: readAt, unread_count: Math.max(Number(unread!.unread_count ?? 0) - count, 0) },
      ...(receipts ? [{ userId: peerId, kind: 'seen' as const, message_id: upTo, peer_id: actorId, read_at: readAt }] : []),
    ],
    totals: [actorId],
  };
}

/** A message's reactions, from its rows in any order: by emoji in the order first used, people in the order they reacted. */
export function summariseReactions(rows: readonly ReactionRow[]): Reaction[] {
  const sorted = [...rows].sort((a, b) => a.at - b.at || a.userId - b.userId || (a.emoji < b.emoji ? -1 : a.emoji > b.emoji ? 1 : 0));
  const byEmoji = new Map<string, number[]>();
  for (const { emoji, userId } of sorted) byEmoji.set(emoji, [...(byEmoji.get(emoji) ?? []), userId]);
  return [...byEmoji].map(([emoji, userIds]) => ({ emoji, user_ids: userIds }));
}

const toAccount = (row: Row): Account => ({
  lastSeq: Number(row.last_seq),
  active: row.is_active === true,
  deleted: row.deleted === true,
  readReceipts: row.read_receipts === true,
});

function toFound(row: Row): Found {
  const message = toMessageRow(row);
  const preview = row.preview as { message: Row; upload: Row | null; reply: MessageWithUpload['reply'] } | null;
  return {
    message,
    hidden: row.hidden === true,
    blocked: row.blocked === true,
    peer: {
      id: message.senderId === Number(row.actor_id) ? message.recipientId : message.senderId,
      active: row.peer_active === true,
      deleted: row.peer_deleted === true,
      readReceipts: row.peer_receipts === true,
    },
    reactionRows: ((row.reaction_rows ?? []) as { emoji: string; user_id: number; at: string }[]).map((reaction) => ({
      emoji: reaction.emoji,
      userId: Number(reaction.user_id),
      at: Date.parse(reaction.at),
    })),
    storageKey: (row.storage_key as string | null) ?? null,
    carried: row.carried === true,
    recipientUnread: Number(row.recipient_unread ?? 0),
    preview: preview ? { message: toMessageRow(preview.message), upload: preview.upload ? toUploadRow(preview.upload) : null, reply: preview.reply ?? null } : null,
  };
}

/** Changes per transaction, and changes queued or being written beyond which new ones are turned away (busy). */
export const MAX_CHANGE_BATCH = 256;
export const MAX_PENDING_CHANGES = 4_000;

export type ChangeWriter = GroupWriter<ChangeRequest, ChangeOutcome>;

/** The group commit of changes (group-writer.ts): those that arrive together share a transaction. */
export function createChangeWriter(db: Db, options: { maxBatch?: number; maxPending?: number } = {}): ChangeWriter {
  return createGroupWriter((batch: ChangeRequest[]) => applyChanges(db, batch), {
    maxBatch: options.maxBatch ?? MAX_CHANGE_BATCH,
    maxPending: options.maxPending ?? MAX_PENDING_CHANGES,
  });
}
