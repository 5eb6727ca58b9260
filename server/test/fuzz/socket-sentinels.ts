// The socket fuzz's fixed cases, sent on every run whatever the seed (socket-cases.ts has the
// generated ones): inputs that once broke something, so a regression cannot hide behind an
// unlucky seed.
import { jsonRoundTrip } from './hostile-values';
import type { SocketCase } from './socket-cases';
import type { SocketIds } from './socket-ids';

/** The fixed cases, each refused (or harmless, as marked) for the fuzzing user `ids` describes. */
export function sentinelCases(ids: SocketIds): SocketCase[] {
  const own = [...ids.conversationIds][0];
  const send = (extra: Record<string, unknown>) => ({
    client_id: '00000000-0000-4000-a000-000000000000', recipient_id: ids.peerId, text: 'hello', attachment_id: null, ...extra,
  });
  const payloads: [string, unknown][] = [
    ['send', send({ text: 'a\u0000b' })],
    ['send', send({ attachment_id: 'a\u0000b' })],
    // A reply to someone else's message, or to an id past what a bigint column holds.
    ['send', send({ reply_to: ids.foreignMessageId })],
    ['send', send({ reply_to: 2 ** 63 })],
    ['send', send({ reply_to: [...ids.conversationMessageIds][0], recipient_id: ids.inactiveId })],
    ['send', send({ text: 'é\uDE42' })],
    ['send', send({ text: '', attachment_id: 'é\uDE42' })],
    ['send', send({ client_id: '00000000-0000-4000-a000-00000000000\u0000' })],
    ['init', { id: ids.peerId }],
    // Past what a bigint column holds.
    ['read', { conversation_id: own, up_to: 2 ** 63 }],
    ['follow', { user_id: ids.selfId, follow: true }],
    // Someone else's conversation is refused exactly like a missing one.
    ['sync_conversation', { conversation_id: ids.foreignConversationId, after: 0 }],
    // A horizon one past what a transaction id can be: refused, never cast by the database.
    ['sync_account', { cursor: '1.18446744073709551616.0.0' }],
    ['sync_account', { cursor: '1.2.3.0', user_id: ids.peerId }],
    ['sync_conversation', { conversation_id: 2 ** 63, after: 0 }],
    ['sync_conversation', { conversation_id: own, after: -1 }],
    ['typing', { user_id: ids.selfId, typing: true }],
    ['typing', { user_id: ids.peerId, typing: 'true' }],
    ['presence_subscribe', { user_ids: Array.from({ length: 101 }, (_, i) => i + 1) }],
    ['presence_subscribe', { user_ids: { 0: ids.peerId, length: 1 } }],
    ['visibility', { visible: 'false' }],
    ['visibility', { visible: true, user_id: ids.peerId }],
    // Someone else's message is refused exactly like a missing one, for every change.
    ['react', { message_id: ids.foreignMessageId, emoji: '👍', add: true }],
    ['react', { message_id: [...ids.conversationMessageIds][0], emoji: '❤', add: true }],
    ['edit', { message_id: ids.foreignMessageId, text: 'mine now' }],
    ['edit', { message_id: [...ids.conversationMessageIds][0], text: 'a\u0000b' }],
    ['unsend', { message_id: ids.foreignMessageId }],
    ['hide', { message_id: ids.foreignMessageId }],
    ['hide', { message_id: 9_000_000_000 }],
    ...byConversation(ids),
  ];
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
  // Up to someone else's message (older than the fuzzer's unread one): a bound, never a lookup,
  // so it reads nothing and tells no tab anything.
  const upToForeign = { conversation_id: own, up_to: ids.foreignMessageId };
  return [
    ...payloads.map(([event, payload]) => ({ category: 'sentinel', event, args: [payload], ack: true, style: 'ack', wire: jsonRoundTrip(payload) })),
    { category: 'sentinel', event: 'read', args: [upToForeign], ack: true, style: 'ack', wire: upToForeign, harmless: true },
    ...names.flatMap((event) => [
      { category: 'sentinel', event, args: [{}], ack: true, style: 'ack', wire: {} },
      { category: 'sentinel', event, args: [], ack: false, style: 'no-ack', wire: undefined },
    ]),
  ];
}

/** Requests by conversation: someone else's, one past a bigint, both targets at once, neither. */
function byConversation(ids: SocketIds): [string, unknown][] {
  const own = [...ids.conversationIds][0];
  const send = (extra: Record<string, unknown>) => ({ client_id: '00000000-0000-4000-a000-000000000001', text: 'hello', ...extra });
  return [
    ['send', send({ conversation_id: ids.foreignConversationId })],
    ['send', send({ conversation_id: 2 ** 63 })],
    ['send', send({ conversation_id: own, recipient_id: ids.peerId })],
    ['send', send({})],
    ['send', send({ conversation_id: own, reply_to: ids.foreignMessageId })],
    ['send', send({ conversation_id: own, text: 'a\u0000b' })],
    ['read', { conversation_id: ids.foreignConversationId }],
    ['read', { conversation_id: own, user_id: ids.peerId }],
    ['read', { user_id: ids.peerId }],
    ['typing', { conversation_id: ids.foreignConversationId, typing: true }],
    ['typing', { conversation_id: own, user_id: ids.peerId, typing: true }],
    ['typing', { typing: true }],
  ];
}
