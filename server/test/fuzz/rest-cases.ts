// Malformed REST requests. Each one must be answered 4xx with an error body (docs/API.md); none may be a
// request the server would accept (a logout, a settings change, an upload), so nothing stored
// changes. `expect` lists the statuses that are right for it (429 is always accepted too).
import { METHODS } from 'node:http';
import {
  authorizeRequestSchema,
  profileRequestSchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
  reportRequestSchema,
  settingsRequestSchema,
} from '../../../lib/contract/schemas';
import { NASTY_KEYS, deepValue, encodePart, hostileNumber, hostileObject, hostileString, hostileValue, jsonRoundTrip } from './hostile-values';
import type { Rng } from './prng';
import { isStorableText } from './socket-cases';

export interface RestIds {
  selfId: number;
  peerId: number;
  inactiveId: number;
  missingId: number;
  /** The fuzzing user's "Bearer <token>". */
  bearer: string;
  revokedBearer: string;
  /** A deactivated user's live session. */
  inactiveBearer: string;
  /** A message the fuzzing user sent (reporting it is refused: only received ones can be), and an id no message has. */
  ownMessageId: number;
  missingMessageId: number;
  /** An upload of the peer's: its id with the right name is a valid (public) download. */
  peerUpload: { id: string; name: string };
  /** The fuzzing user's own Firebase account: a valid ID token, so authorize gets past the verifier. */
  account: { uid: string; idToken: string; email: string };
  /** Fastify's JSON body limit. */
  maxJsonBody: number;
  maxUploadBytes: number;
}

export interface RestCase {
  category: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
  /** Declare Content-Length but send only the start of the body: the answer must come first. */
  partial?: boolean;
  expect: readonly number[];
}

export const JSON_TYPE = 'application/json';
// Fastify parses only application/json (any parameters) as JSON here; these it refuses with 415.
const FOREIGN_TYPES = [
  'text/plain', 'text/html', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/xml',
  'application/octet-stream', 'image/png', 'application/jsonp', 'application/vnd.api+json', 'json', 'text/json',
  'application/json-patch+json', 'application/ld+json', 'application/x-json',
];
const LANGUAGES = ['en', 'es', 'fr'];

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined')).toString('base64url');

/** The documented cursor format (docs/DECISIONS.md), independently of server/http/cursor.ts. */
export function isValidCursor(raw: string, tag: 'm' | 'c' | 'f'): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(raw) || raw.length > 200) return false;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return false;
  }
  const id = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;
  if (!Array.isArray(value) || value[0] !== tag) return false;
  return tag === 'f'
    ? value.length === 3 && Number.isSafeInteger(value[1]) && (value[1] as number) >= 0 && id(value[2])
    : value.length === 2 && id(value[1]);
}

const BAD_IDS = [
  '-1', '0', '-0', '1.5', '1.0', '1e3', '0x1f', '0b1', 'abc', 'NaN', 'Infinity', 'null', 'undefined', 'true',
  '99999999999999999999', '2147483648', '4294967297', '9'.repeat(400), '%20', '%201', '1%20', '+1', '%2B1', '01',
  '00000001', '1_000', '1,2', '%5B%5D', '%7B%7D', '%00', '1%00', '1%2F', '%2F1', '1%23', "1'", '1%27%20OR%201%3D1',
  encodeURIComponent('١'), '%EF%BC%91', '%E2%80%8B1', '..%2f1', '%2e', '-', '%', '%ZZ', '%E0%A4%A', 'é', '1;x',
];
const USER_ID_ROUTES = ['/api/users/:id', '/api/users/:id/followers', '/api/users/:id/following', '/api/conversations/:id/messages'];

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

export function restGenerators(ids: RestIds) {
  const token = ids.bearer.slice('Bearer '.length);
  const auth = { authorization: ids.bearer };
  const json = (extra: Record<string, string> = {}) => ({ ...auth, 'content-type': JSON_TYPE, ...extra });
  const routeWith = (route: string, id: string | number) => route.replace(':id', String(id));

  /** An authenticated route, as a well-formed request (the credential is then replaced). */
  const authedRoutes = (rng: Rng): Omit<RestCase, 'category' | 'expect'>[] => [
    { method: 'GET', path: '/api/accounts/info', headers: {} },
    { method: 'PATCH', path: '/api/accounts/settings', headers: { 'content-type': JSON_TYPE }, body: '{"language":"fr"}' },
    { method: 'PATCH', path: '/api/accounts/profile', headers: { 'content-type': JSON_TYPE }, body: '{"username":"Fuzz"}' },
    { method: 'POST', path: '/api/accounts/logout', headers: {} },
    { method: 'POST', path: '/api/accounts/deactivate', headers: {} },
    { method: 'GET', path: '/api/users/search?q=a', headers: {} },
    ...USER_ID_ROUTES.map((route) => ({ method: 'GET', path: routeWith(route, ids.peerId), headers: {} })),
    { method: 'GET', path: '/api/conversations', headers: {} },
    { method: 'GET', path: '/api/uploads/usage', headers: {} },
    { method: 'POST', path: '/api/uploads', headers: { 'x-file-name': 'a.txt', 'content-type': 'text/plain' }, body: rng.bytes(64) },
    { method: rng.pick(['PUT', 'DELETE']), path: `/api/users/${ids.peerId}/block`, headers: {} },
    { method: 'GET', path: '/api/blocks', headers: {} },
    { method: 'PATCH', path: `/api/conversations/${ids.peerId}`, headers: { 'content-type': JSON_TYPE }, body: '{"muted":true}' },
    { method: 'POST', path: '/api/reports', headers: { 'content-type': JSON_TYPE }, body: JSON.stringify({ user_id: ids.peerId, reason: 'spam' }) },
    { method: 'GET', path: '/api/accounts/export', headers: {} },
    { method: 'DELETE', path: '/api/accounts/me', headers: {} },
    { method: 'GET', path: '/api/push/public-key', headers: {} },
    { method: 'POST', path: '/api/push/subscriptions', headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(pushSubscriptionBody()) },
    { method: 'DELETE', path: '/api/push/subscriptions', headers: { 'content-type': JSON_TYPE }, body: JSON.stringify({ endpoint: PUSH_ENDPOINT }) },
  ];

  const badCredentials = (rng: Rng): (string | undefined)[] => [
    undefined, '', ' ', 'Bearer', 'Bearer ', 'bearer', 'Bearer null', 'Bearer undefined', 'Basic dXNlcjpwYXNz',
    `Token ${token}`, `${token}x`, `Bearer ${token.slice(0, -1)}`, `Bearer ${token} ${token}`, `Bearer ${token.toUpperCase()}`,
    `Bearer ${'a'.repeat(600)}`, ids.revokedBearer, ids.revokedBearer.slice('Bearer '.length), `Bearer ${rng.chars(43, TOKEN_ALPHABET)}`,
    `Bearer ${'é'.repeat(43)}`, "Bearer ' OR '1'='1", 'Bearer %00', `Bearer ${token}%00`, `Bearer,${token}`,
  ];

  const generators: Record<string, (rng: Rng) => RestCase> = {
    // Every authenticated route without a live session: missing, malformed, revoked; inactive gets 403.
    auth: (rng) => {
      const route = rng.pick(authedRoutes(rng));
      // Routes a deactivated account may still use (and that would act on it): never sent with its session.
      const inactiveOk = !['/api/accounts/info', '/api/accounts/logout', '/api/accounts/deactivate', '/api/accounts/me'].includes(route.path);
      if (inactiveOk && rng.chance(0.15)) {
        return { ...route, category: 'auth', headers: { ...route.headers, authorization: ids.inactiveBearer }, expect: [403] };
      }
      const credential = rng.pick(badCredentials(rng));
      const headers = credential === undefined ? route.headers : { ...route.headers, authorization: credential };
      return { ...route, category: 'auth', headers, expect: [401] };
    },

    'bad-id': (rng) => {
      const route = rng.pick(USER_ID_ROUTES);
      const id = rng.chance(0.85)
        ? rng.pick(BAD_IDS)
        : rng.pick([ids.missingId, ids.inactiveId, 2_147_483_647, ...(route.startsWith('/api/conversations') ? [ids.selfId] : [])]);
      return { category: 'bad-id', method: 'GET', path: routeWith(route, id), headers: auth, expect: [400, 404] };
    },

    'path-trick': (rng) => {
      const { id, name } = ids.peerUpload;
      const base = rng.pick([
        '/api/accounts/info', `/api/users/${ids.peerId}`, `/api/users/${ids.peerId}/followers`, '/api/conversations',
        `/api/conversations/${ids.peerId}/messages`, `/api/uploads/${id}/${name}`, '/api/uploads/usage', '/api/health',
        '/api/messages/search',
      ]);
      const segments = base.split('/');
      const at = rng.int(2, segments.length - 1);
      const trick = rng.pick<(s: string) => string>([
        (s) => `${s}/`, (s) => `${s}//`, (s) => `/${s}`, (s) => `${s}%00`, (s) => `%00${s}`, (s) => `${s}%2f`,
        (s) => `${s}%2F..%2F..%2Fetc%2Fpasswd`, (s) => `..%2f..%2f${s}`, (s) => `${s};x=1`, (s) => `${s}%3Fx=1`,
        (s) => s.toUpperCase() === s ? `${s}X` : s.toUpperCase(), (s) => `${s}%20`, (s) => `${s}%ZZ`, (s) => `${s}%E0%A4%A`,
        (s) => `${s}é`, (s) => `${s}%C0%AE%C0%AE`, (s) => `${s}%EF%BC%8F`, (s) => `${s}\\`, (s) => `${s}%5C..%5C`,
        (s) => `${s}%0d%0aSet-Cookie:x=1`, (s) => `${s}.json`, (s) => `${s}~`, (s) => `${s}%u002e`, (s) => `${s}/..%00`,
      ]);
      segments[at] = trick(segments[at] ?? '');
      return { category: 'path-trick', method: rng.pick(['GET', 'GET', 'HEAD']), path: segments.join('/'), headers: auth, expect: [400, 404] };
    },

    'bad-query': (rng) => {
      const badLimit = () => rng.pick(['0', '-1', '51', '101', '1.5', 'abc', '', '1e1', '01', '%00', '99999999999999999999', '%205', '5%20']);
      if (rng.chance(0.5)) {
        const badQ = () => rng.pick(['', '%20%20%20', '%09', 'a'.repeat(101), `${'é'.repeat(101)}`, '%00', 'a%00', '%00%25', 'q%00b']);
        const parts = rng.pick<string[]>([
          [], [`q=${badQ()}`], [`q=a`, `limit=${badLimit()}`], [`q=a`, `q=b`], ['q[]=a'], ['q[a]=b'], ['Q=a'], [`q=${badQ()}`, 'limit=5'],
          [`q=a`, 'limit=1', 'limit=2'], ['q'], ['=a'], ['q=a', `limit=${'9'.repeat(50)}`],
        ]);
        return { category: 'bad-query', method: 'GET', path: `/api/users/search?${parts.join('&')}`, headers: auth, expect: [400] };
      }
      if (rng.chance(0.2)) {
        // Search in messages: no words, too long, twice, or with another list's cursor.
        const parts = rng.pick<string[]>([
          [], ['q='], ['q=%20%20'], ['q=%3F%21%2A'], ['q=%00'], [`q=${'a'.repeat(201)}`], ['q=a', 'q=b'], ['q=a', `cursor=${b64(['m', 5])}`],
          ['q=a', `cursor=${b64(['s', rng.pick<unknown>([0, -1, 1.5, '5', 2 ** 53, null])])}`], ['q=a', 'cursor='],
        ]);
        return { category: 'bad-query', method: 'GET', path: `/api/messages/search?${parts.join('&')}`, headers: auth, expect: [400] };
      }
      const badThreadLimit = () => rng.pick(['0', '-1', '101', '1000', '1.5', 'abc', '', '1e1', '01', '%00', '99999999999999999999', '%205', '5%20']);
      const parts = rng.pick<string[]>([
        [`limit=${badThreadLimit()}`], ['limit=1', 'limit=2'], ['limit[]=1', `limit=${badThreadLimit()}`], [`limit=${badThreadLimit()}`, 'cursor='],
        // A page around a message: a bad id, two ids, or one with a cursor (which around replaces).
        [`around=${rng.pick(['0', '-1', '1.5', 'abc', '', '1e1', '01', '%00', '99999999999999999999', '9007199254740993', '0x10', '1_000', '%205'])}`],
        ['around=1', 'around=2'], [`around=1`, `cursor=${b64(['m', 5])}`], [`around=1`, `limit=${badThreadLimit()}`],
      ]);
      return { category: 'bad-query', method: 'GET', path: `/api/conversations/${ids.peerId}/messages?${parts.join('&')}`, headers: auth, expect: [400] };
    },

    'bad-cursor': (rng) => {
      const [route, tag] = rng.pick<[string, 'm' | 'c' | 'f']>([
        ['/api/conversations', 'c'], [`/api/conversations/${ids.peerId}/messages`, 'm'],
        [`/api/users/${ids.peerId}/followers`, 'f'], [`/api/users/${ids.peerId}/following`, 'f'],
      ]);
      const otherTag = rng.pick(['m', 'c', 'f'].filter((t) => t !== tag));
      let cursor: string;
      do {
        cursor = rng.pick<() => string>([
          () => rng.chars(rng.int(1, 300), TOKEN_ALPHABET),
          () => b64([otherTag, rng.int(1, 1000), rng.int(1, 1000)].slice(0, otherTag === 'f' ? 3 : 2)),
          () => b64([tag, hostileNumber(rng), ...(tag === 'f' ? [hostileNumber(rng)] : [])]),
          () => b64([tag, String(rng.int(1, 100))]),
          // A thread's newer-page cursor with a value no message id can be.
          () => b64([tag === 'm' ? 'n' : tag, rng.pick<unknown>([0, -1, 1.5, '5', 2 ** 53, null, [1], 1e308])]),
          () => b64(rng.pick<unknown>([[], {}, null, tag, 1, [tag], [tag, 1, 2, 3], [tag.toUpperCase(), 1], [[tag, 1]], { 0: tag, 1: 1 }])),
          () => b64('{"__proto__":{"polluted":true}}'),
          () => b64(deepValue(rng, 40)),
          () => b64(hostileValue(rng, { maxHuge: 150, binary: false, maxDepth: 30 }, 1)),
          () => Buffer.from(JSON.stringify([tag, 5])).toString('base64'), // padded, +/ alphabet
          () => `${b64([tag, 5])}${rng.pick(['=', '==', '.', '%00', '%20', '!', '%2B'])}`,
          () => b64([tag, 5]).repeat(20),
          () => rng.pick(['', '%00', 'null', 'undefined', '%E0%A4%A', 'é', '%ZZ', '%ED%A0%80']),
          () => encodePart(hostileString(rng, 300)),
        ])();
      } while (isValidCursor(safeDecode(cursor), tag));
      const extra = rng.pick(['', '', `&cursor=${b64([tag, 5])}`, '&cursor[]=x']);
      return { category: 'bad-cursor', method: 'GET', path: `${route}?cursor=${cursor}${extra}`, headers: auth, expect: [400] };
    },

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

    method: (rng) => {
      const routes: [string, readonly string[]][] = [
        ['/api/accounts/authorize', ['POST']], ['/api/accounts/info', ['GET', 'HEAD']], ['/api/accounts/settings', ['PATCH']], ['/api/accounts/profile', ['PATCH']],
        ['/api/accounts/logout', ['POST']], ['/api/accounts/deactivate', ['POST']], ['/api/users/search?q=a', ['GET', 'HEAD']],
        [`/api/users/${ids.peerId}`, ['GET', 'HEAD']], [`/api/users/${ids.peerId}/followers`, ['GET', 'HEAD']],
        ['/api/conversations', ['GET', 'HEAD']], ['/api/messages/search?q=a', ['GET', 'HEAD']], [`/api/conversations/${ids.peerId}/messages`, ['GET', 'HEAD']],
        ['/api/uploads', ['POST']], ['/api/uploads/usage', ['GET', 'HEAD']], [`/api/uploads/${ids.peerUpload.id}/${ids.peerUpload.name}`, ['GET', 'HEAD']], ['/api/health', ['GET', 'HEAD']],
        [`/api/users/${ids.peerId}/block`, ['PUT', 'DELETE']], ['/api/blocks', ['GET', 'HEAD']], [`/api/conversations/${ids.peerId}`, ['PATCH']],
        ['/api/reports', ['POST']], ['/api/accounts/export', ['GET', 'HEAD']], ['/api/accounts/me', ['DELETE']],
        ['/api/push/public-key', ['GET', 'HEAD']], ['/api/push/subscriptions', ['POST', 'DELETE']], ['/api/push', []],
        ['/api', []], ['/api/', []], ['/api/accounts', []], ['/api/users', []], ['/api/nope', []], ['/api/accounts/info/extra', []],
      ];
      const [path, allowed] = rng.pick(routes);
      const method = rng.pick(METHODS.filter((m) => m !== 'CONNECT' && !allowed.includes(m)));
      // 400: Fastify wants a body type for methods that carry one (QUERY).
      return { category: 'method', method, path, headers: auth, expect: [400, 404, 405] };
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
        if (rng.chance(0.4)) {
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
        return { category: 'safety', method: 'PATCH', path: `/api/conversations/${ids.peerId}`, headers: json(), body: JSON.stringify(body) ?? 'null', expect: [400, 413] };
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

    'upload-post': (rng) => {
      const defect = rng.pick(['name', 'name', 'name', 'chunked', 'empty']);
      const badName = () => rng.pick([
        '', ' ', '.', '..', '/', 'a%2F', '%2F', 'dir%2F', '..%2F..%2F', '%5C', 'C%3A%5C', '%', '%E0%A4%A', '%ZZ', '%00', 'a%00b',
        'a%0Ab', 'a%0D%0Ab', '%7F', '%1B%5B31m', encodeURIComponent('x'.repeat(256)), encodeURIComponent('é'.repeat(300)), '%20%20',
      ]);
      const headers: Record<string, string> = { ...auth, 'content-type': rng.pick(['image/png', 'application/json', 'text/plain']) };
      const body = rng.bytes(rng.int(1, 2_048));
      if (defect === 'name') {
        const name = rng.chance(0.1) ? undefined : badName();
        if (name !== undefined) headers['x-file-name'] = name;
        return { category: 'upload-post', method: 'POST', path: '/api/uploads', headers, body, expect: [400] };
      }
      headers['x-file-name'] = 'file.bin';
      if (defect === 'chunked') return { category: 'upload-post', method: 'POST', path: '/api/uploads', headers, body, chunked: true, expect: [400] };
      return { category: 'upload-post', method: 'POST', path: '/api/uploads', headers: { ...headers, 'content-length': '0' }, body: Buffer.alloc(0), expect: [400] };
    },

    // Public, but only with the right id and name.
    'upload-get': (rng) => {
      const { id, name } = ids.peerUpload;
      const [badId, badName] = rng.pick<[string, string]>([
        [rng.chars(24, TOKEN_ALPHABET), name], [id.toLowerCase(), name], [id.slice(0, -1), name], [`${id}x`, name], [id, `${name}x`],
        [id, name.toUpperCase()], [id, encodeURIComponent(`../${name}`)], [id, '*'], [id, '%00'], [id, `${name}%00`], ['*', '*'],
        [id, encodePart(hostileString(rng, 200)) || 'x'], [encodePart(hostileString(rng, 200)) || 'x', name],
        ['..%2F..%2Fpackage.json', 'x'], ['%2e%2e', '%2e%2e'], [id, `${name}/`],
      ]);
      if (badId === id && badName === name) return generators['upload-get']!(rng);
      return { category: 'upload-get', method: rng.pick(['GET', 'HEAD']), path: `/api/uploads/${badId}/${badName}`, headers: {}, expect: [400, 404] };
    },

    // A real download asked for bytes it does not have: a suffix of none, or a start past any
    // file's end, however it is spelled (a range the server does not serve would be a 200).
    'upload-range': (rng) => {
      const { id, name } = ids.peerUpload;
      const start = rng.pick(['99999999999', '9'.repeat(rng.int(16, 400)), String(2 ** 31), String(2 ** 53 + 1), '000000000000099999999']);
      const spec = rng.pick([`${start}-`, `${start}-${start}`, `${start}-${start}${'9'.repeat(rng.int(1, 40))}`, '-0', '-000']);
      const unit = rng.pick(['bytes', 'BYTES', 'Bytes']);
      const range = rng.chance(0.3) ? `${unit} = ${spec.replace('-', ' - ')}` : `${unit}=${spec}`;
      const headers: Record<string, string> = { range, ...(rng.chance(0.3) && { 'if-range': `"${id}"` }) };
      return { category: 'upload-range', method: rng.pick(['GET', 'HEAD']), path: `/api/uploads/${id}/${name}`, headers, expect: [416] };
    },
  };
  return generators;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
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

/** An allowed-looking push service endpoint (the fuzzed server sends no push: nothing reaches it). */
const PUSH_ENDPOINT = 'https://fcm.googleapis.com/fcm/send/fuzz';

/** A well-formed PushSubscription.toJSON(): an uncompressed P-256 point and a 16-byte secret. */
function pushSubscriptionBody(): Record<string, unknown> {
  const point = Buffer.alloc(65, 7);
  point[0] = 4;
  return { endpoint: PUSH_ENDPOINT, expirationTime: null, keys: { p256dh: point.toString('base64url'), auth: Buffer.alloc(16, 9).toString('base64url') } };
}

/** A subscribe or unsubscribe body the schema refuses (so never one that would be registered). */
function refusedPushBody(rng: Rng, bearer: string): RestCase {
  const valid = pushSubscriptionBody();
  const keys = valid.keys as Record<string, string>;
  const subscribing = rng.chance(0.7);
  let body: unknown;
  do {
    body = subscribing
      ? rng.pick<() => unknown>([
          () => ({ ...valid, endpoint: rng.pick(['', 'fcm', 'javascript:alert(1)', 'file:///etc/passwd', 'ws://x/y', `https://${'a'.repeat(2_100)}.com`, hostileString(rng, 300)]) }),
          () => ({ ...valid, keys: { ...keys, p256dh: rng.pick(['', keys.auth, `${keys.p256dh}AA`, 'not base64!', hostileString(rng, 100)]) } }),
          () => ({ ...valid, keys: { ...keys, auth: rng.pick(['', keys.p256dh, 'AA', '%%%', hostileString(rng, 100)]) } }),
          () => ({ ...valid, keys: hostileValue(rng, { maxHuge: 1_000, binary: false }, 1) }),
          () => ({ ...valid, [rng.pick(NASTY_KEYS)]: 1 }),
          () => ({ ...valid, expirationTime: rng.pick(['soon', {}, [], true]) }),
          () => Object.fromEntries(Object.entries(valid).filter(() => rng.chance(0.5))),
          () => hostileValue(rng, { maxHuge: 1_000, binary: false }, 2),
        ])()
      : rng.pick<() => unknown>([
          () => ({ endpoint: rng.pick(['', 1, null, [], {}, 'x'.repeat(2_049)]) }),
          () => ({ endpoint: PUSH_ENDPOINT, [rng.pick(NASTY_KEYS)]: 1 }),
          () => hostileValue(rng, { maxHuge: 1_000, binary: false }, 2),
        ])();
  } while ((subscribing ? pushSubscriptionSchema : pushUnsubscribeSchema).safeParse(jsonRoundTrip(body)).success);
  return {
    category: 'bad-body',
    method: subscribing ? 'POST' : 'DELETE',
    path: '/api/push/subscriptions',
    headers: { authorization: bearer, 'content-type': JSON_TYPE },
    body: JSON.stringify(body) ?? 'null',
    expect: [400, 413],
  };
}

export function authorizeBodyFor(ids: RestIds): Record<string, unknown> {
  return {
    username: 'Fuzz', email: ids.account.email, firebase_id: ids.account.uid, social_type: 'google',
    avatar: 'https://example.com/a.png', id_token: ids.account.idToken,
  };
}

/** An authorize body that must be refused: never a sign-in that would upsert the user or open a session. */
function refusedAuthorizeBody(rng: Rng, ids: RestIds): string {
  const valid = authorizeBodyFor(ids);
  const keys = Object.keys(valid);
  const body: unknown = rng.pick<() => unknown>([
    () => ({ ...valid, [rng.pick(keys)]: hostileValue(rng, { maxHuge: ids.maxJsonBody / 4, binary: false }, 1) }),
    () => ({ ...valid, [rng.pick(NASTY_KEYS)]: 1 }),
    () => Object.fromEntries(Object.entries(valid).filter(() => rng.chance(0.5))),
    () => ({ ...valid, id_token: rng.pick(['garbage', 'a.b.c', `${ids.account.idToken}x`, ids.account.idToken.split('.').slice(0, 2).join('.') + '.']) }),
    () => ({ ...valid, firebase_id: rng.pick([`${ids.account.uid}x`, ids.account.uid.toUpperCase(), ' ', 'x'.repeat(129)]) }),
    () => ({ ...valid, email: rng.pick(['other@example.com', 'not-an-email', ids.account.email.replace('@', '@@')]) }),
    () => ({ ...valid, social_type: rng.pick(['facebook', 'GOOGLE', '', 'google ']) }),
    () => ({ ...valid, avatar: rng.pick(['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'ftp://x/y', '//x']) }),
    () => ({ ...valid, username: rng.pick(['a\u0000b', 'x'.repeat(101)]) }),
    () => hostileValue(rng, { maxHuge: 1_000, binary: false }, 2),
  ])();
  const wire = jsonRoundTrip(body);
  const parsed = authorizeRequestSchema.safeParse(wire);
  const accepted =
    parsed.success &&
    // Text the database cannot store (U+0000, lone surrogates) must be refused: sent as it is.
    Object.values(parsed.data).every((value) => typeof value !== 'string' || isStorableText(value)) &&
    parsed.data.id_token === ids.account.idToken &&
    parsed.data.firebase_id === ids.account.uid &&
    (!parsed.data.email || parsed.data.email.toLowerCase() === ids.account.email.toLowerCase());
  return JSON.stringify(accepted ? { ...(wire as object), firebase_id: `${ids.account.uid}-not-mine` } : body) ?? 'null';
}
