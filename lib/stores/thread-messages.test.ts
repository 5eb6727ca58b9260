import { describe, expect, it } from 'vitest';
import { ME, message } from '@/lib/testing/fixtures';
import { appendLocal, fromServer, mergeMessages, settleLocal, type ThreadMessage } from './thread-messages';

const ids = (messages: readonly ThreadMessage[]) => messages.map((m) => m.id ?? m.client_id);

function local(clientId: string, fields: Partial<ThreadMessage> = {}): ThreadMessage {
  return { ...fromServer(message(0, { sender_id: ME, recipient_id: 2 })), id: null, client_id: clientId, status: 'sending', ...fields };
}

describe('thread message merging', () => {
  it('shows newest-first pages in chronological order', () => {
    const newest = [message(5), message(4), message(3)];
    const older = [message(2), message(1)];
    expect(ids(mergeMessages(mergeMessages([], newest), older))).toEqual([1, 2, 3, 4, 5]);
  });

  it('never duplicates a message seen twice, by id or by sender and client id', () => {
    const once = mergeMessages([], [message(1), message(2)]);
    const again = mergeMessages(once, [message(2), { ...message(1), text: 'edited copy' }]);
    expect(ids(again)).toEqual([1, 2]);
    expect(again[0]?.text).toBe('edited copy');
  });

  it('keeps two senders’ equal client ids apart (client ids are unique per sender only)', () => {
    const theirs = message(1, { client_id: 'same' });
    const mine = message(2, { client_id: 'same', sender_id: ME, recipient_id: 2 });
    expect(ids(mergeMessages([], [theirs, mine]))).toEqual([1, 2]);
  });

  it('orders by id (the order stored), whatever the timestamps say, and keeps unsent messages last', () => {
    const merged = mergeMessages([local('a')], [message(9, { minute: 1 }), message(8, { minute: 2 })]);
    expect(ids(merged)).toEqual([8, 9, 'a']);
  });

  it('a live copy of a message being sent settles it', () => {
    const sending = local('c-1');
    const stored = message(10, { sender_id: ME, recipient_id: 2, client_id: 'c-1' });
    const merged = mergeMessages([fromServer(message(1)), sending], [stored]);
    expect(merged.map((m) => [m.id, m.status])).toEqual([
      [1, 'sent'],
      [10, 'sent'],
    ]);
  });

  it('settleLocal replaces the local message with the stored one, once', () => {
    const thread = appendLocal([fromServer(message(1))], local('c-1'));
    const stored = message(2, { sender_id: ME, recipient_id: 2, client_id: 'c-1' });
    const settled = settleLocal(settleLocal(thread, `${ME}:c-1`, stored), `${ME}:c-1`, stored);
    expect(ids(settled)).toEqual([1, 2]);
  });
});
