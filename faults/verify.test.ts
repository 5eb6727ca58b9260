// The fault test's checks, on made-up records: each rule must be able to fail.
import { describe, expect, it } from 'vitest';
import type { MessagePayload } from '../lib/contract';
import { Inbox } from './inbox';
import type { OutboxEntry } from './sim-client';
import { verify, type ClientRecord, type StoredRow } from './verify';

const A = 1;
const B = 2;

function payload(row: StoredRow, viewer: number): MessagePayload {
  return {
    id: row.id,
    client_id: row.clientId,
    sender_id: row.senderId,
    recipient_id: row.recipientId,
    text: row.text,
    attachment: null,
    created_at: '2026-01-01T00:00:00.000Z',
    read_at: null,
    seq: viewer === row.senderId ? row.senderSeq : row.recipientSeq,
    edited_at: null,
    deleted: false,
    reactions: [],
    version: viewer === row.senderId ? row.senderSeq : row.recipientSeq,
  };
}

/** A→B twice, both acked, stored and delivered: a clean run. */
function world() {
  const stored: StoredRow[] = [
    { id: 1, senderId: A, recipientId: B, clientId: 'a1', text: '#1 from 1', senderSeq: 1, recipientSeq: 1, changed: false },
    { id: 2, senderId: A, recipientId: B, clientId: 'a2', text: '#2 from 1', senderSeq: 2, recipientSeq: 2, changed: false },
  ];
  const written: OutboxEntry[] = stored.map((row) => ({
    clientId: row.clientId,
    recipientId: row.recipientId,
    text: row.text,
    enqueuedAt: 0,
    attempts: 1,
    acked: payload(row, A),
  }));
  const a: ClientRecord = { userId: A, written, inbox: new Inbox(A), anomalies: [] };
  const b: ClientRecord = { userId: B, written: [], inbox: new Inbox(B), anomalies: [] };
  for (const row of stored) {
    a.inbox.add(payload(row, A));
    b.inbox.add(payload(row, B));
  }
  return { stored, a, b };
}

describe('verify', () => {
  it('passes a clean run and counts it', () => {
    const { stored, a, b } = world();
    expect(verify([a, b], stored)).toEqual({
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
    const { stored, a, b } = world();
    const verdict = verify([a, b], stored.slice(0, 1));
    expect(Object.keys(verdict.failures)).toContain('acknowledged but not stored');
    expect(verdict.lost).toBe(1);
  });

  it('finds a message never acknowledged', () => {
    const { stored, a, b } = world();
    delete a.written[1]!.acked;
    expect(verify([a, b], stored).failures['never acknowledged']).toHaveLength(1);
  });

  it('finds a second stored copy under another client_id, and a recipient holding both', () => {
    const { stored, a, b } = world();
    const copy: StoredRow = { ...stored[1]!, id: 3, clientId: 'a2-again', senderSeq: 3, recipientSeq: 3 };
    a.inbox.add(payload(copy, A));
    b.inbox.add(payload(copy, B));
    const verdict = verify([a, b], [...stored, copy]);
    expect([verdict.duplicatesStored, verdict.duplicatesReceived]).toEqual([1, 1]);
    expect(Object.keys(verdict.failures)).toEqual(expect.arrayContaining(['stored more than once', 'received more than once']));
  });

  it('finds a message the recipient never got, and the gap it leaves', () => {
    const { stored, a } = world();
    const b: ClientRecord = { userId: B, written: [], inbox: new Inbox(B), anomalies: [] };
    b.inbox.add(payload(stored[1]!, B));
    const verdict = verify([a, b], stored);
    expect(verdict.failures['not delivered']).toEqual(['message 1 from 1 to 2']);
    expect(Object.keys(verdict.failures)).toEqual(expect.arrayContaining(['seq gap', 'recipient order differs from send order']));
  });

  it('finds messages stored out of send order', () => {
    const { stored, a, b } = world();
    // By id, as readStoredMessages returns them: the second message written was stored first.
    const swapped = [
      { ...stored[1]!, id: 1, senderSeq: 1, recipientSeq: 1 },
      { ...stored[0]!, id: 2, senderSeq: 2, recipientSeq: 2 },
    ];
    const failures = Object.keys(verify([a, b], swapped).failures);
    expect(failures).toEqual(expect.arrayContaining(['stored order differs from send order', 'ack differs from the stored row']));
  });

  it('finds a message held at another seq than the stored one', () => {
    const { stored, a, b } = world();
    const renumbered = [stored[0]!, { ...stored[1]!, recipientSeq: 5 }];
    expect(verify([a, b], renumbered).failures['seq differs from the stored one']).toEqual([
      `user ${B}: message 2 held as seq 2`,
    ]);
  });

  it('reports protocol anomalies the clients saw', () => {
    const { stored, a, b } = world();
    b.anomalies.push('sync answered last_seq 3 but seq 3 is missing');
    expect(verify([a, b], stored).failures['protocol anomaly']).toEqual([`user ${B}: sync answered last_seq 3 but seq 3 is missing`]);
  });
});
