// The fault test's checks, on made-up records: each rule must be able to fail.
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../lib/contract';
import { ConversationInbox } from './conversation-inbox';
import type { OutboxEntry } from './sim-client';
import { verify, verifyCatchUps, type ClientRecord, type StoredHeads, type StoredRow } from './verify';

const A = 1;
const B = 2;
/** A and B's conversation. */
const AB = 100;

/** The copy every member of the conversation gets. */
function conversationPayload(row: StoredRow): ConversationMessage {
  return {
    id: row.id,
    conversation_id: row.conversationId,
    seq: row.conversationSeq,
    version: row.conversationSeq,
    client_id: row.clientId,
    sender_id: row.senderId,
    text: row.text,
    attachment: null,
    attachment_removed: false,
    created_at: '2026-01-01T00:00:00.000Z',
    edited_at: null,
    deleted: false,
    reactions: [],
    reply_to: null,
  };
}

/** Each conversation's head at its newest stored message, and no account items. */
function headsOf(stored: StoredRow[]): StoredHeads {
  const conversations = new Map<number, number>();
  for (const row of stored) conversations.set(row.conversationId, Math.max(row.conversationSeq, conversations.get(row.conversationId) ?? 0));
  return { conversations, accounts: new Map() };
}

/** A client holding each row as it was pushed. */
class Client {
  readonly record: ClientRecord & { inbox: ConversationInbox };

  constructor(
    readonly userId: number,
    written: OutboxEntry[] = [],
  ) {
    this.record = { userId, written, inbox: new ConversationInbox(userId), anomalies: [] };
  }

  hold(row: StoredRow): void {
    this.record.inbox.add(conversationPayload(row));
  }
}

/** A→B twice, both acked, stored and delivered: a clean run. */
function world() {
  const stored: StoredRow[] = [
    { id: 1, senderId: A, recipientId: B, clientId: 'a1', text: '#1 from 1', conversationId: AB, conversationSeq: 1, changed: false },
    { id: 2, senderId: A, recipientId: B, clientId: 'a2', text: '#2 from 1', conversationId: AB, conversationSeq: 2, changed: false },
  ];
  const written: OutboxEntry[] = stored.map((row) => ({
    clientId: row.clientId,
    recipientId: B,
    text: row.text,
    enqueuedAt: 0,
    attempts: 1,
    acked: conversationPayload(row),
  }));
  const a = new Client(A, written);
  const b = new Client(B);
  for (const row of stored) {
    a.hold(row);
    b.hold(row);
  }
  return { stored, a, b, heads: headsOf(stored) };
}

describe('verify', () => {
  it('passes a clean run and counts it', () => {
    const { stored, a, b, heads } = world();
    expect(verify([a.record, b.record], stored, heads)).toEqual({
      sent: 2,
      acked: 2,
      stored: 2,
      delivered: 2,
      duplicatesStored: 0,
      duplicatesReceived: 0,
      lost: 0,
      failures: {},
    });
  });

  it('finds an acknowledged message the database lost', () => {
    const { stored, a, b, heads } = world();
    const verdict = verify([a.record, b.record], stored.slice(0, 1), heads);
    expect(Object.keys(verdict.failures)).toContain('acknowledged but not stored');
    expect(verdict.lost).toBe(1);
  });

  it('finds a message never acknowledged', () => {
    const { stored, a, b, heads } = world();
    delete a.record.written[1]!.acked;
    expect(verify([a.record, b.record], stored, heads).failures['never acknowledged']).toHaveLength(1);
  });

  it('finds a second stored copy under another client_id, and a recipient holding both', () => {
    const { stored, a, b } = world();
    const copy: StoredRow = { ...stored[1]!, id: 3, clientId: 'a2-again', conversationSeq: 3 };
    a.hold(copy);
    b.hold(copy);
    const verdict = verify([a.record, b.record], [...stored, copy], headsOf([...stored, copy]));
    expect([verdict.duplicatesStored, verdict.duplicatesReceived]).toEqual([1, 1]);
    expect(Object.keys(verdict.failures)).toEqual(expect.arrayContaining(['stored more than once', 'received more than once']));
  });

  it('finds a message the recipient never got, and the gap it leaves', () => {
    const { stored, a, heads } = world();
    const b = new Client(B);
    b.hold(stored[1]!);
    const verdict = verify([a.record, b.record], stored, heads);
    expect(verdict.failures['not delivered']).toEqual(['message 1 from 1 to 2']);
    expect(verdict.failures['seq gap']).toEqual([`user ${B}: conversation ${AB} holds 1, contiguous to 0, highest 2, head at 2`]);
    expect(verdict.failures['recipient order differs from send order']).toEqual([`${A}→${B}: 1 held, 2 sent`]);
    expect(verdict.lost).toBe(1);
  });

  it('finds messages stored out of send order', () => {
    const { stored, a, b, heads } = world();
    // By id, as readStoredMessages returns them: the second message written was stored first.
    const swapped = [
      { ...stored[1]!, id: 1, conversationSeq: 1 },
      { ...stored[0]!, id: 2, conversationSeq: 2 },
    ];
    const failures = Object.keys(verify([a.record, b.record], swapped, heads).failures);
    expect(failures).toEqual(expect.arrayContaining(['stored order differs from send order', 'ack differs from the stored row']));
  });

  it('finds a message held at another place than the stored one, and an ack that says so', () => {
    const { stored, a, b, heads } = world();
    const moved = [stored[0]!, { ...stored[1]!, conversationSeq: 5 }];
    const failures = verify([a.record, b.record], moved, heads).failures;
    expect(failures['seq differs from the stored one']).toEqual([
      `user ${A}: message 2 held as conversation ${AB} seq 2`,
      `user ${B}: message 2 held as conversation ${AB} seq 2`,
    ]);
    expect(failures['ack differs from the stored row']).toEqual([`${A}/a2: ack 2, stored 2`]);
  });

  it('finds a conversation seq held twice: two messages at one seq, one message at two seqs', () => {
    const { stored, a, b, heads } = world();
    b.record.inbox.add({ ...conversationPayload(stored[1]!), id: 9 });
    b.record.inbox.add({ ...conversationPayload(stored[0]!), seq: 3 });
    expect(verify([a.record, b.record], stored, heads).failures['protocol anomaly']).toEqual([
      `user ${B}: conversation ${AB} seq 2 is message 2 and message 9`,
      `user ${B}: message 1 arrived as conversation ${AB} seq 1 and conversation ${AB} seq 3`,
    ]);
  });

  it('finds a gap left at the end of a conversation, which no later seq reveals to the client', () => {
    const { stored, a, b } = world();
    // A reaction at seq 3, stored and pushed, reached A but never B.
    a.record.inbox.addChange({ conversation_id: AB, seq: 3, message_id: 1, actor_id: A, kind: 'reaction', reactions: [] });
    const heads = headsOf(stored);
    heads.conversations.set(AB, 3);
    expect(b.record.inbox.hasGap).toBe(false);
    expect(verify([a.record, b.record], stored, heads).failures).toEqual({
      'seq gap': [`user ${B}: conversation ${AB} holds 2, contiguous to 2, highest 2, head at 3`],
    });
  });

  it('finds an account item missing from a client', () => {
    const { stored, a, b, heads } = world();
    // B read the conversation (its item 1) on another device, and this client never heard of it.
    heads.accounts.set(B, 1);
    expect(verify([a.record, b.record], stored, heads).failures['account item gap']).toEqual([
      `user ${B}: holds 0 items, contiguous to 0, highest 0, account at 1`,
    ]);
  });

  it('reports protocol anomalies the clients saw', () => {
    const { stored, a, b, heads } = world();
    b.record.anomalies.push('sync_conversation 100 after 0 answered last_seq 3 but seq 3 is missing');
    expect(verify([a.record, b.record], stored, heads).failures['protocol anomaly']).toEqual([
      `user ${B}: sync_conversation 100 after 0 answered last_seq 3 but seq 3 is missing`,
    ]);
  });
});

describe('verifyCatchUps', () => {
  it('finds a message acknowledged before a whole catch-up that the catch-up did not bring', () => {
    const { a, b } = world();
    for (const [index, entry] of a.record.written.entries()) entry.ackedAt = 10 * (index + 1);
    // B's catch-up ran from 15 to 16, after message 1 was acked; message 1 came only at 30.
    b.record.inbox.arrivedAt.set(1, 30);
    const clients = [
      { ...a.record, catchUps: [] },
      { ...b.record, catchUps: [{ askedAt: 15, doneAt: 16 }] },
    ];
    expect(verifyCatchUps(clients)).toEqual({
      'missed by a catch-up': [`user ${B}: message 1, acked at 10, not held after the catch-up asked at 15 (done 16)`],
    });
    clients[1]!.catchUps[0] = { askedAt: 15, doneAt: 30 };
    expect(verifyCatchUps(clients)).toEqual({});
  });
});
