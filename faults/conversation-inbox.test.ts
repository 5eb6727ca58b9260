import { describe, expect, it } from 'vitest';
import type { ConversationChange, ConversationMessage } from '../lib/contract';
import { ConversationInbox } from './conversation-inbox';

const ME = 7;
const PEER = 8;
const message = (id: number, conversationId: number, seq: number, from = PEER): ConversationMessage => ({
  id,
  conversation_id: conversationId,
  seq,
  version: seq,
  client_id: `c-${id}`,
  sender_id: from,
  text: `#${id}`,
  attachment: null,
  attachment_removed: false,
  created_at: '2026-01-01T00:00:00.000Z',
  edited_at: null,
  deleted: false,
  reactions: [],
  reply_to: null,
});

describe('the protocol 2 client’s inbox', () => {
  it('keeps each conversation’s seqs apart, each with its own gap', () => {
    const inbox = new ConversationInbox(ME);
    inbox.add(message(10, 1, 1));
    inbox.add(message(11, 2, 1, ME));
    expect(inbox.hasGap).toBe(false);
    // A first message heard at seq 3 of a conversation not held yet: seqs 1 and 2 are missing.
    inbox.add(message(12, 3, 3));
    expect([inbox.gaps(), inbox.contiguousOf(3)]).toEqual([[3], 0]);
    inbox.accountThrough(3, 2);
    expect([inbox.gaps(), inbox.contiguousOf(3), inbox.hasGap]).toEqual([[], 3, false]);
    expect(inbox.received().map((m) => m.id)).toEqual([10, 12]);
  });

  it('drops a copy it holds, and reports a seq held twice or a message at two places', () => {
    const inbox = new ConversationInbox(ME);
    expect(inbox.add(message(10, 1, 1))).toBe(true);
    expect(inbox.add(message(10, 1, 1), 'sync')).toBe(false);
    expect([inbox.redundant, inbox.receivedBySync, inbox.anomalies]).toEqual([1, 0, []]);
    inbox.add(message(11, 1, 1));
    inbox.add(message(10, 1, 2));
    inbox.addChange({ conversation_id: 1, seq: 1, message_id: 10, actor_id: PEER, kind: 'unsend' });
    expect(inbox.anomalies).toEqual([
      'conversation 1 seq 1 is message 10 and message 11',
      'message 10 arrived as conversation 1 seq 1 and conversation 1 seq 2',
      'conversation 1 seq 1 is message 10 and a unsend change',
    ]);
  });

  it('shows each message with the changes newer than its copy, and "Seen" up to the receipt', () => {
    const inbox = new ConversationInbox(ME);
    const edit: ConversationChange = { conversation_id: 1, seq: 3, message_id: 10, actor_id: ME, kind: 'edit', text: 'new', edited_at: '2026-01-01T00:00:01.000Z' };
    inbox.add(message(10, 1, 1, ME));
    inbox.add(message(11, 1, 2, ME));
    // A copy synced after the edit already reflects it (its version): the change leaves it be.
    inbox.add({ ...message(12, 1, 4, ME), text: 'edited later', version: 5 });
    inbox.addChange(edit);
    inbox.addChange({ conversation_id: 1, seq: 5, message_id: 12, actor_id: ME, kind: 'edit', text: 'edited later', edited_at: '2026-01-01T00:00:02.000Z' });
    expect(inbox.addChange({ ...edit })).toBe(false);
    inbox.addSeen({ conversation_id: 1, user_id: PEER, seq: 2 });
    const views = inbox.views();
    expect([...views].map(([id, view]) => [id, view.text, view.seen])).toEqual([
      [10, 'new', true],
      [11, '#11', true],
      [12, 'edited later', false],
    ]);
    expect(inbox.unseenConversations()).toEqual([1]);
  });

  it('holds the account’s own items once each, by the account’s seq', () => {
    const inbox = new ConversationInbox(ME);
    inbox.addItem({ seq: 2, conversation_id: 1, kind: 'read', read_seq: 4, unread_count: 0 });
    expect([inbox.hasItemGap, inbox.itemState]).toEqual([true, { held: 1, contiguous: 0, highest: 2 }]);
    inbox.addItem({ seq: 1, conversation_id: 1, kind: 'read', read_seq: 2, unread_count: 1 });
    inbox.addItem({ seq: 1, conversation_id: 1, kind: 'read', read_seq: 3, unread_count: 1 });
    expect([inbox.hasItemGap, inbox.itemState.contiguous]).toEqual([false, 2]);
    expect(inbox.anomalies).toHaveLength(1);
  });
});
