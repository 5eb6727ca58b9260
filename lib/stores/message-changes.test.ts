import { describe, expect, it } from 'vitest';
import { conversation, ME, message } from '@/lib/testing/fixtures';
import { applyToList, applyToThread } from './message-changes';
import { fromServer, mergeMessages } from './thread-messages';

const PEER = 2;
const base = { peer_id: PEER };
const thread = () => mergeMessages([], [message(1, { seq: 10, version: 10 }), message(2, { sender_id: ME, recipient_id: PEER, seq: 11, version: 11 })]);

describe('changes to held messages', () => {
  it('applies an edit, a reaction and an unsend, each carrying the resulting state', () => {
    let messages = thread();
    messages = applyToThread(messages, { ...base, kind: 'edit', seq: 12, message_id: 2, text: 'fixed', edited_at: '2025-01-01T12:05:00.000Z' });
    messages = applyToThread(messages, { ...base, kind: 'reaction', seq: 13, message_id: 1, reactions: [{ emoji: '👍', user_ids: [ME] }] });
    expect(messages[1]).toMatchObject({ text: 'fixed', edited_at: '2025-01-01T12:05:00.000Z', version: 12 });
    expect(messages[0]).toMatchObject({ reactions: [{ emoji: '👍', user_ids: [ME] }], version: 13 });
    messages = applyToThread(messages, { ...base, kind: 'unsend', seq: 14, message_id: 2 });
    expect(messages[1]).toMatchObject({ deleted: true, text: '', attachment: null, reactions: [], version: 14 });
  });

  it('ignores a change applied twice, or one older than the copy held', () => {
    const reacted = applyToThread(thread(), { ...base, kind: 'reaction', seq: 15, message_id: 1, reactions: [{ emoji: '😂', user_ids: [PEER] }] });
    const again = applyToThread(reacted, { ...base, kind: 'reaction', seq: 15, message_id: 1, reactions: [{ emoji: '😂', user_ids: [PEER] }] });
    expect(again).toBe(reacted);
    const late = applyToThread(reacted, { ...base, kind: 'reaction', seq: 13, message_id: 1, reactions: [] });
    expect(late).toBe(reacted);
    // A page read before the change does not undo it either.
    const stale = mergeMessages(reacted, [message(1, { seq: 10, version: 10 })]);
    expect(stale[0]?.reactions).toEqual([{ emoji: '😂', user_ids: [PEER] }]);
  });

  it('marks the user’s messages seen, and the peer’s read, up to the seq read, never later ones', () => {
    // Seqs are the conversation's (10…13), not the messages' ids (1…4).
    const messages = mergeMessages(thread(), [message(3, { sender_id: ME, recipient_id: PEER, seq: 12, version: 12 }), message(4, { seq: 13, version: 13 })]);
    const seen = applyToThread(messages, { ...base, kind: 'seen', seq: 11, read_at: '2025-01-01T13:00:00.000Z' });
    expect(seen.map((m) => m.read_at)).toEqual([null, '2025-01-01T13:00:00.000Z', null, null]);
    const read = applyToThread(seen, { ...base, kind: 'read', seq: 12, read_at: '2025-01-01T13:01:00.000Z', unread_count: 1 });
    expect(read.map((m) => m.read_at)).toEqual(['2025-01-01T13:01:00.000Z', '2025-01-01T13:00:00.000Z', null, null]);
  });

  it('takes a message deleted for me out of the thread and the list’s preview, leaving the list when nothing is left', () => {
    const messages = applyToThread(thread(), { ...base, kind: 'hide', message_id: 2, preview: message(1), unread_count: 0 });
    expect(messages.map((m) => m.id)).toEqual([1]);
    const list = [conversation(PEER, message(2, { sender_id: ME, recipient_id: PEER }), 0), conversation(3, message(9, { sender_id: 3 }), 1)];
    const previewed = applyToList(list, { ...base, kind: 'hide', message_id: 2, preview: message(1) }, true);
    expect(previewed[0]?.last_message.id).toBe(1);
    const emptied = applyToList(list, { ...base, kind: 'hide', message_id: 2, preview: null }, true);
    expect(emptied.map((row) => row.user.id)).toEqual([3]);
  });

  it('sets the row’s badge from a live change’s unread count, not from one a sync brought', () => {
    const list = [conversation(PEER, message(1), 1)];
    const change = { ...base, kind: 'unsend' as const, seq: 12, message_id: 1, unread_count: 0 };
    expect(applyToList(list, change, true)[0]).toMatchObject({ unread_count: 0, last_message: { deleted: true } });
    expect(applyToList(list, change, false)[0]).toMatchObject({ unread_count: 1, last_message: { deleted: true } });
  });

  it('shows the new text in the list when the last message is edited', () => {
    const list = [conversation(PEER, message(1), 0)];
    const edited = applyToList(list, { ...base, kind: 'edit', seq: 20, message_id: 1, text: 'new', edited_at: '2025-01-01T12:05:00.000Z' }, true);
    expect(edited[0]?.last_message.text).toBe('new');
    expect(fromServer(edited[0]!.last_message).edited_at).toBe('2025-01-01T12:05:00.000Z');
  });
});
