// Compares what the simulated clients wrote, were told and hold with what the database stored: each
// client holds its conversations' streams and its account's own items (conversation-inbox.ts).
import { asc, sql } from 'drizzle-orm';
import type { Db } from '../server/db/engine/open-database';
import { conversationsV2, messages, users } from '../server/db/schema';
import type { ConversationInbox } from './conversation-inbox';
import type { SimClient } from './sim-client';

/** What verify reads of a simulated client. */
export type ClientRecord = Pick<SimClient, 'userId' | 'written' | 'inbox' | 'anomalies'>;

export interface StoredRow {
  id: number;
  senderId: number;
  /** Whom it was sent to (null in a group). */
  recipientId: number | null;
  clientId: string;
  text: string;
  /** Its conversation, and its seq there. */
  conversationId: number;
  conversationSeq: number;
  /** Edited or unsent since: its text is no longer what was written. */
  changed: boolean;
}

export function readStoredMessages(db: Db): Promise<StoredRow[]> {
  return db
    .select({
      id: messages.id,
      senderId: messages.senderId,
      recipientId: messages.recipientId,
      clientId: messages.clientId,
      text: messages.text,
      conversationId: messages.conversationId,
      conversationSeq: messages.seq,
      changed: sql<boolean>`${messages.editedAt} is not null or ${messages.deletedAt} is not null`,
    })
    .from(messages)
    .orderBy(asc(messages.id));
}

/** Where the clients' streams end in the database: each holds 1…n of its own, with no gaps. */
export interface StoredHeads {
  /** Each conversation's newest seq, by id (messages and changes share the numbering). */
  conversations: Map<number, number>;
  /** Each account's newest own item (reads here), by user id. */
  accounts: Map<number, number>;
}

export async function readStoredHeads(db: Db): Promise<StoredHeads> {
  const [heads, accounts] = await Promise.all([
    db.select({ id: conversationsV2.id, lastSeq: conversationsV2.lastSeq }).from(conversationsV2),
    db.select({ id: users.id, accountSeq: users.accountSeq }).from(users),
  ]);
  return {
    conversations: new Map(heads.map((head) => [head.id, head.lastSeq])),
    accounts: new Map(accounts.map((account) => [account.id, account.accountSeq])),
  };
}

export interface Verdict {
  sent: number;
  acked: number;
  stored: number;
  delivered: number;
  /** Stored rows beyond one per written message. */
  duplicatesStored: number;
  /** Messages a recipient holds twice (by sender and text, which is unique per sender here). */
  duplicatesReceived: number;
  lost: number;
  /** Every problem found, grouped by what was broken, a few examples each. */
  failures: Record<string, string[]>;
}

const EXAMPLES = 5;

type Fail = (rule: string, example: string) => void;

export function verify(clients: ClientRecord[], stored: StoredRow[], heads: StoredHeads): Verdict {
  const failures: Record<string, string[]> = {};
  const counts: Record<string, number> = {};
  const fail: Fail = (rule, example) => {
    counts[rule] = (counts[rule] ?? 0) + 1;
    const list = (failures[rule] ??= []);
    if (list.length < EXAMPLES) list.push(example);
  };
  const key = (senderId: number, clientId: string) => `${senderId}/${clientId}`;

  const rowsByKey = new Map<string, StoredRow[]>();
  for (const row of stored) {
    const rows = rowsByKey.get(key(row.senderId, row.clientId)) ?? [];
    rows.push(row);
    rowsByKey.set(key(row.senderId, row.clientId), rows);
  }
  let duplicatesStored = 0;
  let duplicatesReceived = 0;
  for (const [k, rows] of rowsByKey) {
    if (rows.length > 1) {
      duplicatesStored += rows.length - 1;
      fail('stored more than once', `${k}: ids ${rows.map((row) => row.id).join(', ')}`);
    }
  }

  // Every message written is acknowledged, and the ack names the one stored row.
  let lost = 0;
  const written = new Set<string>();
  const writtenTexts = new Set<string>();
  for (const client of clients) {
    for (const entry of client.written) {
      written.add(key(client.userId, entry.clientId));
      writtenTexts.add(key(client.userId, entry.text));
      if (entry.refused) fail('refused', `${client.userId}/${entry.clientId}: ${entry.refused}`);
      if (!entry.acked) {
        lost++;
        fail('never acknowledged', `${client.userId}/${entry.clientId} after ${entry.attempts} attempts`);
        continue;
      }
      const rows = rowsByKey.get(key(client.userId, entry.clientId)) ?? [];
      const row = rows[0];
      if (!row) {
        lost++;
        fail('acknowledged but not stored', `${client.userId}/${entry.clientId} (ack id ${entry.acked.id})`);
      } else if (
        row.id !== entry.acked.id ||
        row.recipientId !== entry.recipientId ||
        (!row.changed && row.text !== entry.text) ||
        entry.acked.conversation_id !== row.conversationId ||
        entry.acked.seq !== row.conversationSeq
      ) {
        fail('ack differs from the stored row', `${client.userId}/${entry.clientId}: ack ${entry.acked.id}, stored ${row.id}`);
      }
    }
  }
  for (const row of stored) {
    if (written.has(key(row.senderId, row.clientId))) continue;
    // Texts are unique per sender: a known text under an unknown client_id is a second copy.
    if (writtenTexts.has(key(row.senderId, row.text))) {
      duplicatesStored++;
      fail('stored more than once', `message ${row.id}: "${row.text}" again, under client_id ${row.clientId}`);
    } else {
      fail('stored but never written', `message ${row.id}`);
    }
  }

  // Every account holds exactly its stored messages, each once, in streams numbered 1…n.
  let delivered = 0;
  for (const client of clients) {
    const me = client.userId;
    const { inbox } = client;
    for (const anomaly of [...inbox.anomalies, ...client.anomalies]) fail('protocol anomaly', `user ${me}: ${anomaly}`);
    const mine = stored.filter((row) => row.senderId === me || row.recipientId === me);
    checkConversations(me, inbox, mine, heads, fail);
    const storedIds = new Set(mine.map((row) => row.id));
    for (const row of mine) {
      if (inbox.hasMessage(row.id)) continue;
      if (row.recipientId === me) {
        lost++;
        fail('not delivered', `message ${row.id} from ${row.senderId} to ${me}`);
      } else {
        fail('own message missing from sync', `message ${row.id} from ${me}`);
      }
    }
    const received = inbox.received();
    delivered += received.filter((message) => storedIds.has(message.id)).length;
    const copies = new Map<string, number>();
    // Texts are unique per sender as written; an edited or unsent copy no longer says what was written.
    for (const message of received.filter((m) => m.edited_at === null && !m.deleted)) {
      const k = key(message.sender_id, message.text);
      copies.set(k, (copies.get(k) ?? 0) + 1);
    }
    for (const [k, n] of copies) {
      if (n > 1) {
        duplicatesReceived += n - 1;
        fail('received more than once', `user ${me}: ${k} ×${n}`);
      }
    }
  }

  // Per sender → recipient: the recipient's seq order and the stored order are the write order.
  const byId = new Map(clients.map((client) => [client.userId, client]));
  for (const sender of clients) {
    const wrote = new Map<number, string[]>();
    for (const entry of sender.written) {
      if (!entry.acked) continue;
      const list = wrote.get(entry.recipientId) ?? [];
      list.push(entry.clientId);
      wrote.set(entry.recipientId, list);
    }
    for (const [recipientId, order] of wrote) {
      const recipient = byId.get(recipientId);
      const seen = recipient?.inbox.received().filter((m) => m.sender_id === sender.userId).map((m) => m.client_id) ?? [];
      const storedOrder = stored
        .filter((row) => row.senderId === sender.userId && row.recipientId === recipientId)
        .map((row) => row.clientId);
      const pair = `${sender.userId}→${recipientId}`;
      if (seen.join() !== order.join()) fail('recipient order differs from send order', `${pair}: ${seen.length} held, ${order.length} sent`);
      if (storedOrder.join() !== order.join()) fail('stored order differs from send order', pair);
    }
  }

  for (const [rule, list] of Object.entries(failures)) {
    if ((counts[rule] ?? 0) > list.length) list.push(`… ${counts[rule]! - list.length} more`);
  }
  return {
    sent: clients.reduce((n, client) => n + client.written.length, 0),
    acked: clients.reduce((n, client) => n + client.written.filter((entry) => entry.acked).length, 0),
    stored: stored.length,
    delivered,
    duplicatesStored,
    duplicatesReceived,
    lost,
    failures,
  };
}

/**
 * Each conversation of the user's is held 1…n to its head, each seq a message or a change (nobody
 * here deletes for themselves, so no seq is left out), each message in its stored conversation at
 * its stored seq; the account's own items 1…n to its last.
 */
function checkConversations(me: number, inbox: ConversationInbox, mine: StoredRow[], heads: StoredHeads, fail: Fail): void {
  const states = inbox.conversationStates();
  for (const conversationId of new Set([...mine.map((row) => row.conversationId), ...states.keys()])) {
    const { held, contiguous, highest } = states.get(conversationId) ?? { held: 0, contiguous: 0, highest: 0 };
    const head = heads.conversations.get(conversationId) ?? 0;
    if (held !== head || contiguous !== head || highest !== head) {
      fail('seq gap', `user ${me}: conversation ${conversationId} holds ${held}, contiguous to ${contiguous}, highest ${highest}, head at ${head}`);
    }
  }
  const items = inbox.itemState;
  const last = heads.accounts.get(me) ?? 0;
  if (items.held !== last || items.contiguous !== last || items.highest !== last) {
    fail('account item gap', `user ${me}: holds ${items.held} items, contiguous to ${items.contiguous}, highest ${items.highest}, account at ${last}`);
  }
  const rowById = new Map(mine.map((row) => [row.id, row]));
  for (const message of inbox.messages()) {
    const row = rowById.get(message.id);
    if (!row) fail('held but not stored', `user ${me}: message ${message.id}`);
    else if (message.conversation_id !== row.conversationId || message.seq !== row.conversationSeq) {
      fail('seq differs from the stored one', `user ${me}: message ${message.id} held as conversation ${message.conversation_id} seq ${message.seq}`);
    }
  }
}

/**
 * Each whole catch-up left its client holding every message to or from it acknowledged before the
 * catch-up was asked for: the ack came after the commit, so the catch-up's first read
 * (`sync_account`) came later still and must lead to it. A miss that a later message of the same
 * conversation would repair before the end shows here. Returns the failures.
 */
export function verifyCatchUps(clients: Pick<SimClient, 'userId' | 'written' | 'inbox' | 'catchUps'>[]): Record<string, string[]> {
  const acked = clients.flatMap((client) =>
    client.written.flatMap((entry) => (entry.acked ? [{ id: entry.acked.id, between: [client.userId, entry.recipientId], ackedAt: entry.ackedAt! }] : [])),
  );
  const failures: string[] = [];
  let count = 0;
  for (const client of clients) {
    const mine = acked.filter((message) => message.between.includes(client.userId));
    for (const { askedAt, doneAt } of client.catchUps) {
      for (const message of mine) {
        if (message.ackedAt >= askedAt) continue;
        const arrivedAt = client.inbox.arrivedAt.get(message.id);
        if (arrivedAt !== undefined && arrivedAt <= doneAt) continue;
        count++;
        if (failures.length < EXAMPLES) {
          failures.push(`user ${client.userId}: message ${message.id}, acked at ${Math.round(message.ackedAt)}, not held after the catch-up asked at ${Math.round(askedAt)} (done ${Math.round(doneAt)})`);
        }
      }
    }
  }
  if (count > failures.length) failures.push(`… ${count - failures.length} more`);
  return count === 0 ? {} : { 'missed by a catch-up': failures };
}

/** A message's state in the database, as its views should show it. */
export interface StoredState {
  id: number;
  senderId: number;
  text: string;
  deleted: boolean;
  reactions: string;
  seen: boolean;
}

/** A message is seen once another member's receipt reaches its seq. */
const seenByAnother = sql<boolean>`exists (select 1 from conversation_members cm where cm.conversation_id = messages.conversation_id
  and cm.user_id <> messages.sender_id and cm.seen_seq >= messages.seq and cm.seen_at is not null)`;

export function readStoredStates(db: Db): Promise<StoredState[]> {
  return db
    .select({ id: messages.id, senderId: messages.senderId, text: messages.text, deletedAt: messages.deletedAt, reactions: messages.reactions, seen: seenByAnother })
    .from(messages)
    .orderBy(asc(messages.id))
    .then((rows) =>
      rows.map((row) => ({
        id: row.id,
        senderId: row.senderId,
        text: row.text,
        deleted: row.deletedAt !== null,
        reactions: JSON.stringify(row.reactions),
        seen: row.seen,
      })),
    );
}

/**
 * Every client's final view of every message it holds (text, unsent, reactions, and for its own
 * messages "Seen") equals the database's row: changes reached everyone, in order, none applied
 * twice or lost. A client's "Seen" comes from the receipts it heard or read from its threads
 * (ConversationInbox). Returns the failures, a few examples per rule.
 */
export function verifyViews(clients: Pick<SimClient, 'userId' | 'inbox'>[], stored: StoredState[]): { compared: number; failures: Record<string, string[]> } {
  const byId = new Map(stored.map((row) => [row.id, row]));
  const failures: Record<string, string[]> = {};
  let compared = 0;
  for (const client of clients) {
    for (const [id, view] of client.inbox.views()) {
      const row = byId.get(id);
      if (!row) continue; // verify() reports messages held but not stored
      compared++;
      // An unread message unsent counts as read without a receipt: neither side shows "Seen" on it.
      const expected = { text: row.text, deleted: row.deleted, reactions: row.reactions, seen: row.senderId === client.userId && row.seen && !row.deleted };
      for (const field of ['text', 'deleted', 'reactions', 'seen'] as const) {
        if (view[field] === expected[field]) continue;
        const list = (failures[`view differs: ${field}`] ??= []);
        if (list.length < EXAMPLES) list.push(`user ${client.userId}, message ${id}: ${String(view[field])} instead of ${String(expected[field])}`);
      }
    }
  }
  return { compared, failures };
}
