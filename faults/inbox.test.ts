import { describe, expect, it } from 'vitest';
import type { MessageChange, MessagePayload } from '../lib/contract';
import { Inbox } from './inbox';

const ME = 7;
const message = (id: number, seq: number, from = 8, to = ME): MessagePayload => ({
  id,
  client_id: `c-${id}`,
  sender_id: from,
  recipient_id: to,
  text: `#${id}`,
  attachment: null,
  created_at: '2026-01-01T00:00:00.000Z',
  read_at: null,
  seq,
  edited_at: null,
  deleted: false,
  reactions: [],
  version: seq,
});

describe('the simulated client’s inbox', () => {
  it('tracks the contiguous high-water mark through a gap and its filling', () => {
    const inbox = new Inbox(ME);
    inbox.add(message(10, 1));
    inbox.add(message(12, 3));
    expect([inbox.contiguous, inbox.highest, inbox.hasGap]).toEqual([1, 3, true]);
    inbox.add(message(11, 2, ME, 8));
    expect([inbox.contiguous, inbox.hasGap]).toEqual([3, false]);
    expect(inbox.messages().map((m) => m.id)).toEqual([10, 11, 12]);
    expect(inbox.received().map((m) => m.id)).toEqual([10, 12]);
  });

  it('drops a copy it already holds, and records when each message first arrived', () => {
    let now = 100;
    const inbox = new Inbox(ME, () => now);
    expect(inbox.add(message(10, 1))).toBe(true);
    now = 200;
    expect(inbox.add(message(10, 1))).toBe(false);
    expect([inbox.size, inbox.redundant, inbox.arrivedAt.get(10)]).toEqual([1, 1, 100]);
    expect(inbox.anomalies).toEqual([]);
  });

  it('reports one message at two seqs, two messages at one seq, and someone else’s message', () => {
    const inbox = new Inbox(ME);
    inbox.add(message(10, 1));
    inbox.add(message(10, 2));
    inbox.add(message(11, 1));
    inbox.add(message(12, 2, 8, 9));
    expect(inbox.anomalies).toHaveLength(3);
    expect(inbox.size).toBe(1);
  });

  it('reports a seq that arrives again as another change, naming both copies', () => {
    const inbox = new Inbox(ME);
    const edit: MessageChange = { kind: 'edit', seq: 2, message_id: 10, peer_id: 8, text: 'new', edited_at: '2026-01-01T00:00:01.000Z' };
    inbox.add(message(10, 1));
    expect(inbox.addChange(edit)).toBe(true);
    expect(inbox.addChange({ ...edit })).toBe(false);
    expect(inbox.anomalies).toEqual([]);
    inbox.addChange({ ...edit, text: 'other' });
    // The same change with its keys in another order is another copy too: the server sends one shape.
    const { kind, ...rest } = edit;
    inbox.addChange({ ...rest, kind } as MessageChange);
    expect(inbox.anomalies).toEqual([
      `seq 2 is two different changes: ${JSON.stringify(edit)} then ${JSON.stringify({ ...edit, text: 'other' })}`,
      `seq 2 is two different changes: ${JSON.stringify(edit)} then ${JSON.stringify({ ...rest, kind })}`,
    ]);
  });
});
