// REST cases wrong in what they address: a missing or bad credential, a bad id, a path trick, a bad
// query or cursor, a method the route does not have.
import { METHODS } from 'node:http';
import { deepValue, encodePart, hostileNumber, hostileString, hostileValue } from './hostile-values';
import type { Rng } from './prng';
import { BAD_IDS, JSON_TYPE, TOKEN_ALPHABET, requestParts, type RestCase, type RestIds } from './rest-case-shape';
import { PUSH_ENDPOINT, pushSubscriptionBody } from './rest-bodies';

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined')).toString('base64url');

/** The documented cursor format (docs/DECISIONS.md), independently of server/http/cursor.ts. */
function isValidCursor(raw: string, tag: 'c' | 'f' | 'o'): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(raw) || raw.length > 200) return false;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return false;
  }
  const id = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;
  if (tag === 'o') return Array.isArray(value) && value.length === 2 && (value[0] === 'o' || value[0] === 'w') && id(value[1]);
  if (!Array.isArray(value) || value[0] !== tag) return false;
  return tag === 'f'
    ? value.length === 3 && Number.isSafeInteger(value[1]) && (value[1] as number) >= 0 && id(value[2])
    : value.length === 2 && id(value[1]);
}

const USER_ID_ROUTES = ['/api/users/:id', '/api/users/:id/followers', '/api/users/:id/following'];

export function addressGenerators(ids: RestIds) {
  const { token, auth, routeWith } = requestParts(ids);

  /** An authenticated route, as a well-formed request (the credential is then replaced). */
  const authedRoutes = (rng: Rng): Omit<RestCase, 'category' | 'expect'>[] => [
    { method: 'GET', path: '/api/accounts/info', headers: {} },
    { method: 'PATCH', path: '/api/accounts/settings', headers: { 'content-type': JSON_TYPE }, body: '{"language":"fr"}' },
    { method: 'PATCH', path: '/api/accounts/profile', headers: { 'content-type': JSON_TYPE }, body: '{"username":"Fuzz"}' },
    { method: 'POST', path: '/api/accounts/logout', headers: {} },
    { method: 'POST', path: '/api/accounts/deactivate', headers: {} },
    { method: 'GET', path: '/api/users/search?q=a', headers: {} },
    ...USER_ID_ROUTES.map((route) => ({ method: 'GET', path: routeWith(route, ids.peerId), headers: {} })),
    { method: 'GET', path: '/api/c', headers: {} },
    { method: 'GET', path: '/api/uploads/usage', headers: {} },
    { method: 'POST', path: '/api/uploads', headers: { 'x-file-name': 'a.txt', 'content-type': 'text/plain' }, body: rng.bytes(64) },
    { method: 'DELETE', path: `/api/uploads/${ids.peerUpload.id}`, headers: {} },
    { method: rng.pick(['PUT', 'DELETE']), path: `/api/users/${ids.peerId}/block`, headers: {} },
    { method: 'GET', path: '/api/blocks', headers: {} },
    { method: 'PATCH', path: `/api/conversations/${ids.peerId}`, headers: { 'content-type': JSON_TYPE }, body: '{"muted":true}' },
    { method: 'PATCH', path: `/api/c/${ids.conversationId}`, headers: { 'content-type': JSON_TYPE }, body: '{"muted":true}' },
    { method: 'GET', path: `/api/c/${ids.conversationId}/messages`, headers: {} },
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

    // A thread by conversation: ids no conversation has, and someone else's (not found, like a missing one).
    'bad-conversation': (rng) => {
      const id = rng.chance(0.7) ? rng.pick(BAD_IDS) : rng.pick([ids.foreignConversationId, 9_000_000_000, Number.MAX_SAFE_INTEGER, 2 ** 53]);
      return { category: 'bad-conversation', method: 'GET', path: `/api/c/${id}/messages`, headers: auth, expect: [400, 404] };
    },

    'bad-id': (rng) => {
      const route = rng.pick(USER_ID_ROUTES);
      const id = rng.chance(0.85) ? rng.pick(BAD_IDS) : rng.pick([ids.missingId, ids.inactiveId, 2_147_483_647]);
      return { category: 'bad-id', method: 'GET', path: routeWith(route, id), headers: auth, expect: [400, 404] };
    },

    'path-trick': (rng) => {
      const { id, name } = ids.peerUpload;
      const base = rng.pick([
        '/api/accounts/info', `/api/users/${ids.peerId}`, `/api/users/${ids.peerId}/followers`, '/api/c',
        `/api/c/${ids.conversationId}/messages`, `/api/uploads/${id}/${name}`, '/api/uploads/usage', '/api/health',
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
        ['around=1', 'around=2'], [`around=1`, `cursor=${b64(['o', 5])}`], [`around=1`, `limit=${badThreadLimit()}`],
      ]);
      return { category: 'bad-query', method: 'GET', path: `/api/c/${ids.conversationId}/messages?${parts.join('&')}`, headers: auth, expect: [400] };
    },

    'bad-cursor': (rng) => {
      const [route, tag] = rng.pick<[string, 'c' | 'f' | 'o']>([
        ['/api/c', 'c'], [`/api/c/${ids.conversationId}/messages`, 'o'], [`/api/users/${ids.peerId}/followers`, 'f'], [`/api/users/${ids.peerId}/following`, 'f'],
      ]);
      const otherTag = rng.pick(['m', 'c', 'f', 'o'].filter((t) => t !== tag));
      let cursor: string;
      do {
        cursor = rng.pick<() => string>([
          () => rng.chars(rng.int(1, 300), TOKEN_ALPHABET),
          () => b64([otherTag, rng.int(1, 1000), rng.int(1, 1000)].slice(0, otherTag === 'f' ? 3 : 2)),
          () => b64([tag, hostileNumber(rng), ...(tag === 'f' ? [hostileNumber(rng)] : [])]),
          () => b64([tag, String(rng.int(1, 100))]),
          // A thread's newer-page cursor with a value no seq can be.
          () => b64([tag === 'o' ? 'w' : tag, rng.pick<unknown>([0, -1, 1.5, '5', 2 ** 53, null, [1], 1e308])]),
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

    method: (rng) => {
      const routes: [string, readonly string[]][] = [
        ['/api/accounts/authorize', ['POST']], ['/api/accounts/info', ['GET', 'HEAD']], ['/api/accounts/settings', ['PATCH']], ['/api/accounts/profile', ['PATCH']],
        ['/api/accounts/logout', ['POST']], ['/api/accounts/deactivate', ['POST']], ['/api/users/search?q=a', ['GET', 'HEAD']],
        [`/api/users/${ids.peerId}`, ['GET', 'HEAD']], [`/api/users/${ids.peerId}/followers`, ['GET', 'HEAD']],
        ['/api/c', ['GET', 'HEAD']], ['/api/messages/search?q=a', ['GET', 'HEAD']],
        ['/api/uploads', ['POST']], ['/api/uploads/usage', ['GET', 'HEAD']], [`/api/uploads/${ids.peerUpload.id}`, ['DELETE']], [`/api/uploads/${ids.peerUpload.id}/${ids.peerUpload.name}`, ['GET', 'HEAD']], ['/api/health', ['GET', 'HEAD']],
        [`/api/users/${ids.peerId}/block`, ['PUT', 'DELETE']], ['/api/blocks', ['GET', 'HEAD']], [`/api/conversations/${ids.peerId}`, ['PATCH']], [`/api/c/${ids.conversationId}`, ['PATCH']], [`/api/c/${ids.conversationId}/messages`, ['GET', 'HEAD']],
        ['/api/reports', ['POST']], ['/api/accounts/export', ['GET', 'HEAD']], ['/api/accounts/me', ['DELETE']],
        ['/api/push/public-key', ['GET', 'HEAD']], ['/api/push/subscriptions', ['POST', 'DELETE']], ['/api/push', []],
        ['/api', []], ['/api/', []], ['/api/accounts', []], ['/api/users', []], ['/api/nope', []], ['/api/accounts/info/extra', []],
      ];
      const [path, allowed] = rng.pick(routes);
      const method = rng.pick(METHODS.filter((m) => m !== 'CONNECT' && !allowed.includes(m)));
      // 400: Fastify wants a body type for methods that carry one (QUERY).
      return { category: 'method', method, path, headers: auth, expect: [400, 404, 405] };
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
