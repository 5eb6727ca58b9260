// Malformed and refused socket events, in the socket protocol the app speaks (2: requests name
// conversations). Every generated event is one the server must refuse (or, for unknown names,
// ignore): a payload the server would accept is never sent, so nothing stored may change.
// Acceptance is judged on what the server receives (the JSON round trip).
import { z } from 'zod';
import type { ClientToServerEvents } from '../../../lib/contract';
import {
  editPayloadSchema,
  followPayloadSchema,
  hidePayloadSchema,
  presenceSubscribePayloadSchema,
  reactPayloadSchema,
  readPayloadSchema,
  sendPayloadSchema,
  syncAccountPayloadSchema,
  syncConversationPayloadSchema,
  typingPayloadSchema,
  visibilityPayloadSchema,
  unsendPayloadSchema,
} from '../../../lib/contract/schemas';
import { NASTY_KEYS, deepValue, hostileNumber, hostileString, hostileValue, hugeString, jsonRoundTrip, type HostileOptions } from './hostile-values';
import type { Rng } from './prng';
import { refusedConversationIds, refusedIds, refusedMessageIds, uuid, type SocketIds } from './socket-ids';


const UNKNOWN_EVENTS: readonly string[] = [
  'error', 'message', 'message_count', 'followed', 'follower', 'message_sent', 'conversation_read', 'safety_changed', 'presence',
  'presence_unsubscribe', 'Typing', 'typing ',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'emit', 'on', 'join', 'leave', 'use',
  'disconnect_me', 'INIT', 'Send', 'init ', ' send', 'send\u0000', 'deactivate', 'logout', 'admin', 'block', 'mute', 'report',
  '', '🙂', 'x'.repeat(5_000),
];

function hasBuffer(value: unknown, depth = 0): boolean {
  if (Buffer.isBuffer(value)) return true;
  if (depth > 20 || typeof value !== 'object' || value === null) return false;
  return Object.values(value).some((item) => hasBuffer(item, depth + 1));
}

function bufferBytes(value: unknown, depth = 0): number {
  if (Buffer.isBuffer(value)) return value.length;
  if (depth > 20 || typeof value !== 'object' || value === null) return 0;
  return Object.values(value).reduce<number>((sum, item) => sum + bufferBytes(item, depth + 1), 0);
}


export interface SocketCase {
  category: string;
  event: string;
  /** The arguments before the ack (the payload first, when there is one). */
  args: unknown[];
  ack: boolean;
  /** How the arguments are laid out: ack, no-ack, extra-args, extra-args-no-ack, ack-only. */
  style: string;
  /** The payload as the server receives it. */
  wire: unknown;
  /** Well formed and harmless, so answered with data; it must still change nothing anyone hears of. */
  harmless?: true;
}

// account-handlers' init schema is not exported; a copy errs on the safe side (it accepts more).
const initSchema = z.object({ id: z.number().int().positive() });
// Every client event of the app's protocol: a new one fails the type check until the fuzz knows it.
export type KnownEvent = keyof ClientToServerEvents;

const SCHEMAS: Record<KnownEvent, z.ZodType> = {
  init: initSchema,
  send: sendPayloadSchema,
  read: readPayloadSchema,
  follow: followPayloadSchema,
  sync_conversation: syncConversationPayloadSchema,
  sync_account: syncAccountPayloadSchema,
  typing: typingPayloadSchema,
  presence_subscribe: presenceSubscribePayloadSchema,
  visibility: visibilityPayloadSchema,
  react: reactPayloadSchema,
  edit: editPayloadSchema,
  unsend: unsendPayloadSchema,
  hide: hidePayloadSchema,
};
/** The events that name a conversation: `read` always, `send` and `typing` or else a person. */
const BY_CONVERSATION: ReadonlySet<string> = new Set(['send', 'read', 'typing']);
const personKey = (event: string) => (event === 'send' ? 'recipient_id' : 'user_id');

/** The changes to one message: refused unless it is a message of the caller's own conversations. */
const MESSAGE_EVENTS: ReadonlySet<string> = new Set(['react', 'edit', 'unsend', 'hide']);
/** Every client → server event of lib/contract/socket.ts. */
export const KNOWN_EVENTS = Object.keys(SCHEMAS) as KnownEvent[];


/** Where a send or typing goes: one of the fuzzing user's conversations, or the peer by person (a send so begins a direct conversation). */
const target = (event: KnownEvent, ids: SocketIds, rng: Rng) =>
  rng.chance(0.5) ? { conversation_id: rng.pick([...ids.conversationIds]) } : { [personKey(event)]: ids.peerId };

function template(event: KnownEvent, ids: SocketIds, rng: Rng): Record<string, unknown> {
  switch (event) {
    case 'init':
      return { id: ids.selfId };
    case 'send':
      return {
        client_id: uuid(rng),
        ...target(event, ids, rng),
        text: 'hello',
        attachment_id: null,
        ...(rng.chance(0.3) ? { reply_to: rng.pick([...ids.conversationMessageIds]) } : {}),
      };
    case 'read':
      return { conversation_id: rng.pick([...ids.conversationIds]), ...(rng.chance(0.5) ? { up_to: rng.pick([...ids.conversationMessageIds, ids.foreignMessageId]) } : {}) };
    case 'follow':
      return { user_id: ids.peerId, follow: rng.chance(0.5) };
    case 'sync_conversation':
      return { conversation_id: ids.foreignConversationId, after: rng.int(0, 100), limit: rng.int(1, 500) };
    case 'sync_account':
      return { cursor: rng.pick([null, `${rng.int(0, 100)}.${rng.int(0, 10_000)}.0.0`]), limit: rng.int(1, 500) };
    case 'typing':
      return { ...target(event, ids, rng), typing: rng.chance(0.5) };
    case 'presence_subscribe':
      return { user_ids: [ids.peerId, ids.inactiveId, ids.missingId].slice(0, rng.int(1, 3)) };
    case 'visibility':
      return { visible: rng.chance(0.5) };
    case 'react':
      return { message_id: ids.foreignMessageId, emoji: rng.pick(['👍', '❤️', '👨‍👩‍👧‍👦', '🇫🇷']), add: rng.chance(0.5) };
    case 'edit':
      return { message_id: ids.foreignMessageId, text: 'edited' };
    case 'unsend':
    case 'hide':
      return { message_id: ids.foreignMessageId };
  }
}


const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text the database can store as given: no U+0000, well-formed UTF-16. Anything else must be refused. */
export const isStorableText = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

/** Does the event's payload schema accept what the server receives? (false for unknown events) */
export function schemaAccepts(event: string, wire: unknown): boolean {
  return (KNOWN_EVENTS as readonly string[]).includes(event) && SCHEMAS[event as KnownEvent].safeParse(wire).success;
}

/** Would the server accept (and act on) this payload from the fuzzing user? */
function wouldAccept(event: string, wire: unknown, ids: SocketIds): boolean {
  if (!(KNOWN_EVENTS as readonly string[]).includes(event)) return false;
  const parsed = SCHEMAS[event as KnownEvent].safeParse(wire);
  if (!parsed.success) return false;
  const data = parsed.data as Record<string, unknown>;
  // Text the database cannot store as given must be refused, never reach a query.
  if (Object.values(data).some((value) => typeof value === 'string' && !isStorableText(value))) return false;
  // By conversation: one of the fuzzing user's, where its other member is the peer.
  if (BY_CONVERSATION.has(event) && data.conversation_id !== undefined) {
    if (!ids.conversationIds.has(data.conversation_id as number)) return false;
    if (event !== 'send') return true;
    return !data.attachment_id && (data.reply_to == null || ids.conversationMessageIds.has(data.reply_to as number));
  }
  switch (event as KnownEvent) {
    case 'init':
      return data.id === ids.selfId;
    case 'sync_account':
    // Answered for any list: whom the caller may not see is left out, never refused.
    case 'presence_subscribe':
    case 'visibility':
      return true;
    // To a person: acknowledged alike whether relayed or dropped (unknown or inactive recipient); only oneself is refused.
    case 'typing':
      return data.user_id !== ids.selfId;
    // To a person: an attachment that is not the sender's is refused; the fuzzing user owns no upload.
    case 'send':
      // A reply only to a message of the conversation with the peer (the one the fuzzing user has).
      return (
        ids.activeIds.has(data.recipient_id as number) &&
        data.recipient_id !== ids.selfId &&
        !data.attachment_id &&
        (data.reply_to == null || (data.recipient_id === ids.peerId && ids.conversationMessageIds.has(data.reply_to as number)))
      );
    // Counted as accepted whatever the rest says (edit windows, ownership): on the safe side.
    case 'react':
    case 'edit':
    case 'unsend':
    case 'hide':
      return ids.conversationMessageIds.has(data.message_id as number);
    case 'sync_conversation':
      return ids.conversationIds.has(data.conversation_id as number);
    default:
      return ids.activeIds.has(data.user_id as number) && data.user_id !== ids.selfId;
  }
}

type Mutation = (payload: Record<string, unknown>, rng: Rng, options: HostileOptions) => unknown;

const MUTATIONS: Record<string, Mutation> = {
  'wrong-type': (p, rng, o) => {
    const key = rng.pick(Object.keys(p));
    const original = typeof p[key];
    let value: unknown;
    do value = hostileValue(rng, o, 1);
    while (typeof value === original && value !== null);
    return { ...p, [key]: value };
  },
  'missing-field': (p, rng) => {
    const copy = { ...p };
    for (let i = rng.int(1, Object.keys(copy).length); i > 0; i--) delete copy[rng.pick(Object.keys(copy))];
    return copy;
  },
  'extra-field': (p, rng, o) => ({ ...p, [rng.pick(NASTY_KEYS.filter((k) => !(k in p)))]: hostileValue(rng, o, 1) }),
  'proto-keys': (p, rng) => {
    const poison = rng.pick([
      '{"__proto__":{"isAdmin":true,"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '{"__proto__":null}',
      '{"__proto__":{"user_id":1,"id":1}}',
    ]);
    return Object.assign(JSON.parse(poison) as Record<string, unknown>, rng.chance(0.5) ? p : {});
  },
  'huge-string': (p, rng, o) => {
    const key = rng.pick(Object.keys(p));
    return { ...p, [key]: hugeString(rng, o.maxHuge) };
  },
  'deep-nesting': (p, rng, o) => {
    const deep = deepValue(rng, rng.pick([64, 512, o.maxDepth ?? 1_000]));
    return rng.chance(0.5) ? deep : { ...p, [rng.pick(Object.keys(p))]: deep };
  },
  'array-payload': (p, rng) =>
    rng.pick<unknown>([[p], [], [p, p], Object.values(p), { ...p, [rng.pick(Object.keys(p))]: [Object.values(p)[0]] }]),
  'edge-number': (p, rng) => {
    const key = rng.pick(Object.keys(p));
    return { ...p, [key]: rng.chance(0.8) ? hostileNumber(rng) : String(p[key]) };
  },
  'strings': (p, rng, o) => ({ ...p, [rng.pick(Object.keys(p))]: hostileString(rng, o.maxHuge) }),
  'binary': (p, rng, o) => {
    const bytes = rng.bytes(Math.min(o.maxHuge, rng.pick([0, 8, 1024, 64 * 1024])));
    return rng.pick<unknown>([bytes, { ...p, [rng.pick(Object.keys(p))]: bytes }, [bytes, bytes], { data: bytes }]);
  },
  'not-an-object': (_p, rng, o) => rng.pick<unknown>([null, undefined, 0, -1, true, '', 'init', hostileString(rng, 1_000), hostileNumber(rng), [], o.maxHuge]),
};

const PAYLOAD_CATEGORIES = [...Object.keys(MUTATIONS), 'semantic'] as const;

/** A send, read or typing aimed wrong: someone else's conversation or none, a person it may not reach, both targets at once, or neither. */
function wrongTarget(event: KnownEvent, p: Record<string, unknown>, ids: SocketIds, rng: Rng): unknown {
  const person = personKey(event);
  const neither = Object.fromEntries(Object.entries(p).filter(([key]) => key !== 'conversation_id' && key !== person));
  if (p.conversation_id !== undefined) return rng.pick<unknown>([{ ...p, conversation_id: rng.pick(refusedConversationIds(ids)) }, { ...p, [person]: ids.peerId }, neither]);
  // By person: a typing only to oneself is refused (to anyone else it is acknowledged, relayed or not).
  const refused = event === 'send' ? rng.pick(refusedIds(ids)) : ids.selfId;
  return rng.pick<unknown>([{ ...p, [person]: refused }, { ...p, conversation_id: rng.pick([...ids.conversationIds]) }, neither]);
}

function semantic(event: KnownEvent, p: Record<string, unknown>, ids: SocketIds, rng: Rng): unknown {
  switch (event) {
    case 'init':
      return { id: rng.pick([ids.peerId, ids.inactiveId, ids.missingId]) };
    case 'send':
      if (rng.chance(0.25)) return { ...p, reply_to: rng.pick([...refusedMessageIds(ids), 0, -1, 1.5, String(ids.foreignMessageId)]) };
      if (rng.chance(0.3)) return { ...p, text: rng.pick(['', 'with a file']), attachment_id: rng.pick([ids.foreignUploadId, 'no-such-upload', ids.foreignUploadId.toLowerCase()]) };
      return wrongTarget(event, p, ids, rng);
    case 'read':
    case 'typing':
      return wrongTarget(event, p, ids, rng);
    case 'sync_account':
      // Cursors no answer gives: past what a horizon or a seq can be, leading zeros, other shapes.
      return rng.chance(0.6)
        ? { ...p, cursor: rng.pick(['', '1.2.3', '01.2.3.0', '1.2.3.4.5', 'a.b.c.d', '1.18446744073709551616.0.0', '1.2.3.18446744073709551616', '9007199254740992.1.0.0', '1.-2.0.0', ' 1.2.3.0', 5, ['1.2.3.0']]) }
        : { ...p, limit: rng.pick([0, 501, 1.5, -1, '100']) };
    case 'sync_conversation':
      return rng.chance(0.5)
        ? { ...p, conversation_id: rng.pick(refusedConversationIds(ids)) }
        : { ...p, after: rng.pick([-1, 1.5, 2 ** 53]), limit: rng.pick([0, 501, 1.5, -1]) };
    case 'presence_subscribe':
      return { user_ids: rng.pick([[0], [-1], [1.5], Array.from({ length: 101 }, (_, i) => i + 1), [String(ids.peerId)]]) };
    case 'visibility':
      return { visible: rng.pick(['true', 'false', 1, 0, null, 'visible', ['true']]) };
    case 'react':
      return rng.chance(0.5)
        ? { ...p, emoji: rng.pick(['', 'a', '👍👍', '❤', ' 👍', '👍 ', ':+1:', 'U+1F44D', '🏻', '\u200D']) }
        : { ...p, message_id: rng.pick(refusedMessageIds(ids)) };
    case 'edit':
      return rng.chance(0.5) ? { ...p, text: 'x'.repeat(4_001) } : { ...p, message_id: rng.pick(refusedMessageIds(ids)) };
    case 'unsend':
    case 'hide':
      return { message_id: rng.pick([...refusedMessageIds(ids), 0, -1, 1.5]) };
    default:
      return { ...p, user_id: rng.pick(refusedIds(ids)) };
  }
}

/** One refused payload for a known event (the category says how it is wrong). */
function refusedPayload(
  event: KnownEvent,
  ids: SocketIds,
  rng: Rng,
  options: HostileOptions,
): { category: string; payload: unknown; wire: unknown } {
  for (let attempt = 0; attempt < 20; attempt++) {
    const category = rng.pick(PAYLOAD_CATEGORIES);
    const base = template(event, ids, rng);
    let payload = category === 'semantic' ? semantic(event, base, ids, rng) : (MUTATIONS[category] as Mutation)(base, rng, options);
    const wire = jsonRoundTrip(payload);
    if (wouldAccept(event, wire, ids)) {
      // A send, read or typing: the same request into someone else's conversation.
      if (BY_CONVERSATION.has(event)) {
        const rest = Object.fromEntries(Object.entries(wire as Record<string, unknown>).filter(([key]) => key !== 'recipient_id' && key !== 'user_id'));
        payload = { ...rest, conversation_id: ids.foreignConversationId };
        return { category, payload, wire: payload };
      }
      // Answered whatever else they say (init: the caller's own id): try another.
      if (event === 'init' || event === 'sync_account' || event === 'presence_subscribe' || event === 'visibility') continue;
      // Same shape, aimed at someone (or a message) the server refuses: still tests everything up to that check.
      if (MESSAGE_EVENTS.has(event)) {
        payload = { ...(wire as Record<string, unknown>), message_id: rng.pick(refusedMessageIds(ids)) };
        return { category, payload, wire: payload };
      }
      if (event === 'sync_conversation') {
        payload = { ...(wire as Record<string, unknown>), conversation_id: ids.foreignConversationId };
        return { category, payload, wire: payload };
      }
      // Following: someone the server refuses.
      payload = { ...(wire as Record<string, unknown>), user_id: rng.pick(refusedIds(ids)) };
      return { category, payload, wire: payload };
    }
    return { category, payload, wire };
  }
  return { category: 'not-an-object', payload: null, wire: null };
}

/** Arguments around the payload: with or without an ack, extra arguments, the ack alone. */
export function socketCase(rng: Rng, ids: SocketIds, options: HostileOptions & { maxFrame: number }): SocketCase {
  const unknown = rng.chance(0.08);
  const event = unknown ? rng.pick(UNKNOWN_EVENTS) : rng.pick(KNOWN_EVENTS);
  const generated = unknown
    ? { category: 'unknown-event', payload: hostileValue(rng, options, 1), wire: undefined }
    : refusedPayload(event as KnownEvent, ids, rng, options);
  const { category, payload } = generated;
  const style = rng.weighted([
    [70, 'ack'],
    [14, 'no-ack'],
    [8, 'extra-args'],
    [4, 'extra-args-no-ack'],
    [4, 'ack-only'],
  ] as const);
  const extras = () => Array.from({ length: rng.int(1, 3) }, () => hostileValue(rng, { ...options, maxHuge: 1_000 }, 1));
  const args =
    style === 'ack-only' ? [] : style === 'extra-args' || style === 'extra-args-no-ack' ? [payload, ...extras()] : [payload];
  const ack = style === 'ack' || style === 'extra-args' || style === 'ack-only';
  // An ack-only emit reaches the server with no payload at all.
  const wire = style === 'ack-only' || unknown ? undefined : generated.wire;
  // With a Buffer anywhere, socket.io-client copies the arguments key by key, and an own
  // `__proto__` key becomes a prototype: the server would not get what `wire` says.
  const text = JSON.stringify(args) ?? '';
  if (hasBuffer(args) && text.includes('"__proto__"')) return socketCase(rng, ids, options);
  // Over the frame limit the connection is closed instead: that is runProtocolAbuse's case.
  if (Buffer.byteLength(text) + bufferBytes(args) > options.maxFrame) return socketCase(rng, ids, options);
  return { category: style === 'ack-only' && !unknown ? 'no-payload' : category, event, args, ack, style, wire };
}
