// Every change a person makes to messages (reactions, edits, unsending, deleting for oneself, and
// reading a conversation) goes to the database in batches, as sends do: one transaction per batch,
// two round trips whatever its size, each change written once: into its conversation's stream
// (reactions, edits, unsending) or the actor's own items (reads, hides; docs/DELIVERY.md, "Changes
// to messages"; docs/design/conversations.md, 3.4). What each kind does: change-rules.ts.
import {
  NOW,
  appendEvents,
  findChangeMessages,
  findUnread,
  lockChangeUsers,
  unreadTotals,
  type AccountEventRow,
  type ConversationEventRow,
  type MessageTarget,
  type ReadTarget,
  type VersionRow,
} from './change-batch-sql';
import { decideMessageChange, toAccount, toFound } from './change-rules';
import type { ChangeOutcome, ChangeRequest, Found, Plan, Pushes } from './changes/plan';
import { decideRead, toUnread } from './changes/read';
import { toAccountItem } from './account-stream';
import { toConversationChange } from './conversation-stream';
import { toConversationMessage } from './message-payload';
import { createGroupWriter, type GroupOutcome, type GroupWriter, type WriterLimits } from '../engine/group-writer';
import type { Db } from '../engine/open-database';
import { NO_ROWS, scriptTransaction } from '../engine/script-transaction';


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
  const reads: ReadTarget[] = [];
  for (const index of indexes) {
    const request = requests[index]!;
    if (request.kind === 'read') reads.push({ userId: request.actorId, conversationId: request.conversationId, upTo: request.upTo });
    else {
      const countFor = request.kind === 'hide' ? 'actor' : request.kind === 'unsend' ? 'recipient' : null;
      targets.push({ actorId: request.actorId, messageId: request.messageId, preview: request.kind === 'hide', countFor });
    }
  }
  return scriptTransaction(db, async (tx) => {
    const [[clock] = [], lockedRows = [], messageRows = [], unreadRows = []] = await tx.run([
      NOW,
      lockChangeUsers(targets, reads),
      targets.length > 0 ? findChangeMessages(targets) : NO_ROWS,
      reads.length > 0 ? findUnread(reads) : NO_ROWS,
    ]);
    const now = new Date(clock!.now as string | Date);
    const accounts = new Map(lockedRows.map((row) => [Number(row.id), toAccount(row)]));
    const found = new Map(messageRows.map((row) => [`${Number(row.actor_id)}:${Number(row.id)}`, toFound(row)]));
    const unread = new Map(unreadRows.map((row) => [`${Number(row.user_id)}:${Number(row.conversation_id)}`, toUnread(row)]));

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
          ? decideRead(request, accounts, unread.get(`${request.actorId}:${request.conversationId}`), now)
          : decideMessageChange(request, context, accounts, now);
      if ('refused' in decision) outcomes[index] = decision;
      else planned.push({ index, plan: decision });
    }

    // Seqs in the order asked, from the locked accounts and the heads read under their locks;
    // then one write of every stream row.
    const accountEvents: AccountEventRow[] = [];
    const conversationEvents: ConversationEventRow[] = [];
    const versions = new Map<number, VersionRow>();
    const itemEnds = new Map<number, number>();
    const heads = new Map([...found.values()].flatMap(({ conversation }) => (conversation ? [[conversation.id, conversation.lastSeq] as const] : [])));
    const headEnds = new Map<number, number>();
    // What each plan pushes, built from the rows as numbered here.
    const pushes: Pushes[] = [];
    for (const { plan } of planned) {
      const push: Pushes = { shared: null, item: null, seen: plan.seen ?? null };
      pushes.push(push);
      if (plan.shared) {
        const { conversationId, members, messageId, actorId, kind, state } = plan.shared;
        const seq = (heads.get(conversationId) ?? 0) + 1;
        heads.set(conversationId, seq);
        headEnds.set(conversationId, seq);
        conversationEvents.push({ c: conversationId, s: seq, m: messageId, a: actorId, k: kind, st: state });
        // The message's version for every member: the conversation seq of its latest change.
        versions.set(messageId, { m: messageId, v: seq });
        push.shared = { change: toConversationChange(conversationId, { seq, message_id: messageId, actor_id: actorId, kind, state }), members };
      }
      if (plan.own) {
        const { userId, conversationId, kind, state, preview } = plan.own;
        const account = accounts.get(userId);
        if (!account) throw new Error(`account ${userId} is not locked by this change`);
        account.accountSeq += 1;
        itemEnds.set(userId, account.accountSeq);
        accountEvents.push({ u: userId, s: account.accountSeq, c: conversationId, k: kind, st: state });
        const previews = new Map(preview ? [[preview.message.id, toConversationMessage(preview)]] : []);
        push.item = { userId, item: toAccountItem({ seq: account.accountSeq, conversation_id: conversationId, kind, state }, previews) };
      }
    }
    const writes = planned.flatMap(({ plan }) => plan.writes);
    const totalsFor = [...new Set(planned.flatMap(({ plan }) => plan.totals))];
    const results = await tx.commit([
      ...writes,
      itemEnds.size > 0 || headEnds.size > 0
        ? appendEvents({ accountEvents, conversationEvents, versions: [...versions.values()], ends: { accounts: itemEnds, conversations: headEnds } })
        : NO_ROWS,
      totalsFor.length > 0 ? unreadTotals(totalsFor) : NO_ROWS,
    ]);
    const [, totalRows = []] = results.slice(writes.length);
    const totals = new Map(totalRows.map((row) => [Number(row.id), Number(row.total)]));
    planned.forEach(({ index, plan }, position) => {
      outcomes[index] = {
        unreadTotals: new Map(plan.totals.map((id) => [id, totals.get(id) ?? 0])),
        ...(plan.removedStorageKey ? { removedStorageKey: plan.removedStorageKey } : {}),
        ...(plan.conversationUnread !== undefined ? { conversationUnread: plan.conversationUnread } : {}),
        pushes: pushes[position]!,
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
  if (request.kind === 'read') return [`conversation:${request.conversationId}`];
  if (!context?.conversation) return [];
  const { message, conversation } = context;
  const claims = [`conversation:${conversation.id}`];
  if (request.kind === 'unsend' && message.attachmentId !== null) claims.push(`upload:${message.attachmentId}`);
  return claims;
}

/** Changes per transaction, and changes queued or being written beyond which new ones are turned away (busy). */
const MAX_CHANGE_BATCH = 256;
const MAX_PENDING_CHANGES = 4_000;

export type ChangeWriter = GroupWriter<ChangeRequest, ChangeOutcome>;

/** The group commit of changes (group-writer.ts): those that arrive together share a transaction. */
export function createChangeWriter(db: Db, options: WriterLimits = {}): ChangeWriter {
  return createGroupWriter((batch: ChangeRequest[]) => applyChanges(db, batch), {
    maxBatch: options.maxBatch ?? MAX_CHANGE_BATCH,
    maxPending: options.maxPending ?? MAX_PENDING_CHANGES,
  });
}
