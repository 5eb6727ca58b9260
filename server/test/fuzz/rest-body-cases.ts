// REST cases wrong in their body: JSON that does not parse, a type that is not JSON, JSON that is
// not the payload, a body over the limit, and blocks, mutes, reports and profile changes the server
// must refuse.
import { profileRequestSchema, reportRequestSchema, settingsRequestSchema } from '../../../lib/contract/schemas';
import { NASTY_KEYS, deepValue, hostileObject, hostileValue, jsonRoundTrip } from './hostile-values';
import type { Rng } from './prng';
import { BAD_IDS, JSON_TYPE, requestParts, type RestCase, type RestIds } from './rest-case-shape';
import { authorizeBodyFor, pushSubscriptionBody, refusedAuthorizeBody, refusedPushBody } from './rest-bodies';
import { isStorableText } from './socket-cases';

// Fastify parses only application/json (any parameters) as JSON here; these it refuses with 415.
const FOREIGN_TYPES = [
  'text/plain', 'text/html', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/xml',
  'application/octet-stream', 'image/png', 'application/jsonp', 'application/vnd.api+json', 'json', 'text/json',
  'application/json-patch+json', 'application/ld+json', 'application/x-json',
];
const LANGUAGES = ['en', 'es', 'fr'];

export function bodyGenerators(ids: RestIds) {
  const { auth, json } = requestParts(ids);

  const generators: Record<string, (rng: Rng) => RestCase> = {
    // Bodies the JSON parser refuses: safe on logout and deactivate, whose handlers must never run.
    'bad-json': (rng) => {
      let body: string;
      do {
        body = rng.pick<() => string>([
          () => '{"language":"fr"'.slice(0, rng.int(1, 16)),
          () => '{"language":"fr",}', () => "{'language':'fr'}", () => '{language:"fr"}', () => '{"a":NaN}', () => '{"a":Infinity}',
          () => '{"a":1}/* c */', () => '{}}', () => '[', () => '\u0000', () => '"\u0000', () => '{"a":"\u0001\u0002"', () => 'undefined',
          () => '['.repeat(rng.pick([1_000, 20_000])), () => '{"a":'.repeat(5_000), () => `{"a":1}${rng.chars(5, 'xyz!')}`,
          () => rng.bytes(rng.int(1, 200)).toString('latin1'), () => `\uFEFF{`, () => '{"a":1,"a":', () => '0x10', () => '01',
          () => `"${'x'.repeat(rng.int(10, 30_000))}`, () => '{"__proto__":', () => '\t\n ',
        ])();
      } while (parsesAsJson(body));
      const route = rng.pick([
        { method: 'POST', path: '/api/accounts/authorize', headers: { 'content-type': JSON_TYPE } },
        { method: 'PATCH', path: '/api/accounts/settings', headers: json() },
        { method: 'PATCH', path: '/api/accounts/profile', headers: json() },
        { method: 'POST', path: '/api/accounts/logout', headers: json() },
        { method: 'POST', path: '/api/accounts/deactivate', headers: json() },
        { method: 'PATCH', path: `/api/conversations/${ids.peerId}`, headers: json() },
        { method: 'POST', path: '/api/reports', headers: json() },
        { method: 'POST', path: '/api/push/subscriptions', headers: json() },
        { method: 'DELETE', path: '/api/push/subscriptions', headers: json() },
      ]);
      return { category: 'bad-json', ...route, body, expect: [400, 413] };
    },

    'content-type': (rng) => {
      const route = rng.pick([
        { method: 'POST', path: '/api/accounts/authorize', headers: {} as Record<string, string> },
        { method: 'PATCH', path: '/api/accounts/settings', headers: auth },
        { method: 'PATCH', path: '/api/accounts/profile', headers: auth },
        { method: 'POST', path: '/api/accounts/logout', headers: auth },
        { method: 'POST', path: '/api/accounts/deactivate', headers: auth },
        { method: 'PATCH', path: `/api/conversations/${ids.peerId}`, headers: auth },
        { method: 'POST', path: '/api/reports', headers: auth },
        { method: 'POST', path: '/api/push/subscriptions', headers: auth },
        { method: 'DELETE', path: '/api/push/subscriptions', headers: auth },
      ]);
      const body = rng.pick([
        '{"language":"fr"}',
        '{"username":"Fuzz"}',
        '{"muted":true}',
        `{"user_id":${ids.peerId},"reason":"spam"}`,
        'language=fr',
        '<a/>',
        'x',
        JSON.stringify(authorizeBodyFor(ids)),
        JSON.stringify(pushSubscriptionBody()),
      ]);
      // No type at all, or one that is not JSON: 415 before any handler runs.
      const type = rng.chance(0.1) ? undefined : rng.pick(FOREIGN_TYPES);
      const headers = type === undefined ? route.headers : { ...route.headers, 'content-type': type };
      return { category: 'content-type', ...route, headers, body, expect: [415] };
    },

    // JSON that parses but is not the payload: settings, authorize and push subscriptions validate it.
    'bad-body': (rng) => {
      if (rng.chance(0.25)) return refusedPushBody(rng, ids.bearer);
      if (rng.chance(0.5)) {
        let body: unknown;
        do {
          body = rng.pick<() => unknown>([
            () => hostileValue(rng, { maxHuge: ids.maxJsonBody / 4, binary: false }, 3),
            () => ({ language: hostileValue(rng, { maxHuge: 2_000, binary: false }, 1) }),
            () => ({ language: rng.pick(LANGUAGES), [rng.pick(NASTY_KEYS)]: hostileValue(rng, { maxHuge: 100, binary: false }, 1) }),
            () => ({ language: rng.pick(['EN', 'de', 'en-US', ' en', 'en\u0000', 'fr ', '']) }),
            () => [{ language: 'fr' }],
            () => ({ language: ['fr'] }),
            () => ({ message_policy: rng.pick(['Everyone', 'friends', 'none', '', 'nobody ', null, 0, ['nobody']]) }),
            () => ({ language: rng.pick(LANGUAGES), message_policy: hostileValue(rng, { maxHuge: 200, binary: false }, 1) }),
            () => ({ show_presence: hostileValue(rng, { maxHuge: 200, binary: false }, 1) }),
            () => ({ show_presence: rng.pick(['true', 'false', 0, 1, null]) }),
            () => ({ notification_preview: rng.pick(['Text', 'all', 'full', '', 'none ', null, 1, ['text']]) }),
            () => ({ notification_sound: rng.pick(['true', 'false', 1, 0, null, 'on', [true]]) }),
            () => ({ notification_sound: true, notification_preview: hostileValue(rng, { maxHuge: 200, binary: false }, 1) }),
            () => ({}),
            () => deepValue(rng, 2_000),
            () => hostileObject(rng, { maxHuge: 1_000, binary: false }, 2),
          ])();
        } while (isValidSettings(jsonRoundTrip(body)));
        return { category: 'bad-body', method: 'PATCH', path: '/api/accounts/settings', headers: json(), body: JSON.stringify(body) ?? 'null', expect: [400, 413] };
      }
      const body = refusedAuthorizeBody(rng, ids);
      return { category: 'bad-body', method: 'POST', path: '/api/accounts/authorize', headers: { 'content-type': JSON_TYPE }, body, expect: [400, 413] };
    },

    oversized: (rng) => {
      if (rng.chance(0.3)) {
        // An upload declared over the limit: refused before its body is read.
        const length = ids.maxUploadBytes + rng.pick([1, 1_000, ids.maxUploadBytes]);
        return {
          category: 'oversized', method: 'POST', path: '/api/uploads', partial: true, body: rng.bytes(1_024),
          headers: { ...auth, 'x-file-name': 'big.bin', 'content-type': 'application/octet-stream', 'content-length': String(length) },
          expect: [413],
        };
      }
      const size = ids.maxJsonBody + rng.pick([1, 1_000, ids.maxJsonBody * 3]);
      const body = rng.chance(0.5) ? JSON.stringify({ language: 'x'.repeat(size) }) : `{"a":"${'x'.repeat(size)}`;
      const route = rng.pick([
        { method: 'POST', path: '/api/accounts/authorize', headers: { 'content-type': JSON_TYPE } },
        { method: 'PATCH', path: '/api/accounts/settings', headers: json() },
        { method: 'PATCH', path: '/api/accounts/profile', headers: json() },
        { method: 'POST', path: '/api/accounts/logout', headers: json() },
      ]);
      return { category: 'oversized', ...route, body, expect: [413] };
    },

    // Blocks, mutes and reports the server must refuse: bad ids, bodies that are not the payload,
    // targets that are not the caller's to act on. Never one it would accept (nothing may change).
    safety: (rng) => {
      const kind = rng.pick(['block', 'mute', 'report', 'report']);
      if (kind === 'block') {
        const id = rng.chance(0.7) ? rng.pick(BAD_IDS) : rng.pick([ids.selfId, ids.missingId, ids.inactiveId, 2_147_483_647]);
        return { category: 'safety', method: rng.pick(['PUT', 'DELETE']), path: `/api/users/${id}/block`, headers: auth, expect: [400, 404] };
      }
      if (kind === 'mute') {
        if (rng.chance(0.2)) {
          // By conversation: ids no conversation has, and someone else's (not found, like a missing one).
          const id = rng.chance(0.5) ? rng.pick(BAD_IDS) : rng.pick([ids.foreignConversationId, 9_000_000_000, Number.MAX_SAFE_INTEGER, 2 ** 53]);
          return { category: 'safety', method: 'PATCH', path: `/api/c/${id}`, headers: json(), body: '{"muted":true}', expect: [400, 404] };
        }
        if (rng.chance(0.3)) {
          const id = rng.chance(0.5) ? rng.pick(BAD_IDS) : rng.pick([ids.missingId, ids.inactiveId, ids.selfId]);
          return { category: 'safety', method: 'PATCH', path: `/api/conversations/${id}`, headers: json(), body: '{"muted":true}', expect: [400, 404] };
        }
        let body: unknown;
        do {
          body = rng.pick<() => unknown>([
            () => ({ muted: hostileValue(rng, { maxHuge: 1_000, binary: false }, 1) }),
            () => ({ muted: true, [rng.pick(NASTY_KEYS)]: 1 }),
            () => ({}),
            () => [{ muted: true }],
            () => hostileValue(rng, { maxHuge: 2_000, binary: false }, 2),
          ])();
        } while (isValidMute(jsonRoundTrip(body)));
        const path = rng.chance(0.5) ? `/api/conversations/${ids.peerId}` : `/api/c/${ids.conversationId}`;
        return { category: 'safety', method: 'PATCH', path, headers: json(), body: JSON.stringify(body) ?? 'null', expect: [400, 413] };
      }
      const body: unknown = rng.pick<() => unknown>([
        // Well-formed, but not the caller's to report: answered 404, or 400 for oneself.
        () => ({ message_id: rng.pick([ids.missingMessageId, ids.ownMessageId]), reason: 'spam' }),
        () => ({ user_id: rng.pick([ids.missingId, ids.inactiveId, ids.selfId]), reason: rng.pick(['spam', 'other']) }),
        () => ({ user_id: ids.peerId, message_id: ids.ownMessageId, reason: 'spam' }),
        () => ({ user_id: ids.peerId, reason: rng.pick(['SPAM', 'abuse', '', ' spam', 'spam\u0000', 1, null]) }),
        () => ({ user_id: ids.peerId, reason: 'other', details: rng.pick(['x'.repeat(1_001), 'a\u0000b', 5, ['x']]) }),
        () => ({ user_id: ids.peerId, reason: 'spam', [rng.pick(NASTY_KEYS)]: hostileValue(rng, { maxHuge: 100, binary: false }, 1) }),
        () => ({ user_id: hostileValue(rng, { maxHuge: 100, binary: false }, 1), reason: 'spam' }),
        () => ({ reason: 'spam' }),
        () => hostileValue(rng, { maxHuge: 2_000, binary: false }, 2),
      ])();
      const wire = jsonRoundTrip(body);
      // A hostile value can land on a real target by chance: aimed at nobody instead, it still tests the route.
      const safe = wouldReport(wire, ids) ? { ...(wire as object), user_id: ids.missingId, message_id: undefined } : body;
      return { category: 'safety', method: 'POST', path: '/api/reports', headers: json(), body: JSON.stringify(safe) ?? 'null', expect: [400, 404, 413] };
    },

    // Names and photos the server must refuse: never one it would store (nothing may change).
    // A photo that is someone else's upload is well-formed, and refused all the same.
    profile: (rng) => {
      let body: unknown;
      do {
        body = rng.pick<() => unknown>([
          () => ({ username: hostileValue(rng, { maxHuge: 2_000, binary: false }, 1) }),
          () => ({ username: rng.pick(['', ' ', '\u200B', '\u202E\u2066', '\u3164', 'a\u0000b', 'a\u0007', 'x'.repeat(101), 'é\uDE42', null, 5, ['Ada']]) }),
          () => ({ avatar_upload_id: hostileValue(rng, { maxHuge: 200, binary: false }, 1) }),
          () => ({ avatar_upload_id: rng.pick(['', '../x', 'a/b', 'x'.repeat(65), ids.peerUpload.id.toLowerCase(), `${ids.peerUpload.id}%00`, 0, true]) }),
          () => ({ avatar_upload_id: ids.peerUpload.id, ...(rng.chance(0.5) && { username: 'Fuzz' }) }),
          () => ({ username: 'Fuzz', [rng.pick(NASTY_KEYS)]: hostileValue(rng, { maxHuge: 100, binary: false }, 1) }),
          () => ({ username: 'Fuzz', avatar: 'https://example.com/a.png' }),
          () => ({}),
          () => [{ username: 'Fuzz' }],
          () => hostileValue(rng, { maxHuge: 2_000, binary: false }, 2),
        ])();
      } while (wouldChangeProfile(jsonRoundTrip(body), ids));
      return { category: 'profile', method: 'PATCH', path: '/api/accounts/profile', headers: json(), body: JSON.stringify(body) ?? 'null', expect: [400, 413] };
    },
  };
  return generators;
}

function parsesAsJson(text: string): boolean {
  // secure-json-parse (Fastify's) also strips a leading BOM.
  for (const candidate of [text, text.replace(/^\uFEFF/, '')]) {
    try {
      JSON.parse(candidate);
      return true;
    } catch {
      // not JSON
    }
  }
  return false;
}

/** A body PATCH /api/accounts/settings accepts (and would act on). */
function isValidSettings(body: unknown): boolean {
  return settingsRequestSchema.safeParse(body).success;
}

/** Would PATCH /api/accounts/profile store this body? Any valid one would, unless its photo is the peer's upload. */
function wouldChangeProfile(body: unknown, ids: RestIds): boolean {
  const parsed = profileRequestSchema.safeParse(body);
  if (!parsed.success) return false;
  if (!Object.values(parsed.data).every((value) => typeof value !== 'string' || isStorableText(value))) return false;
  return parsed.data.avatar_upload_id !== ids.peerUpload.id;
}

/** Would POST /api/reports file this body? Only for a target the fuzzing user may report. */
function wouldReport(body: unknown, ids: RestIds): boolean {
  const parsed = reportRequestSchema.safeParse(body);
  if (!parsed.success) return false;
  const strings = Object.values(parsed.data).filter((value): value is string => typeof value === 'string');
  if (!strings.every(isStorableText)) return false;
  const { user_id: userId, message_id: messageId } = parsed.data;
  if (userId !== undefined) return ![ids.selfId, ids.missingId, ids.inactiveId].includes(userId);
  return messageId !== ids.ownMessageId && messageId !== ids.missingMessageId;
}

/** A body PATCH /api/conversations/:id accepts (and would act on). */
function isValidMute(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 1 && typeof (body as { muted?: unknown }).muted === 'boolean';
}
