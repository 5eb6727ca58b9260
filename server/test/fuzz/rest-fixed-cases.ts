// Cases sent on every run, whatever the seed: known nasties, and requests below HTTP's semantics.
import type { Rng } from './prng';
import { authorizeBodyFor } from './rest-bodies';
import { JSON_TYPE, type RestCase, type RestIds } from './rest-case-shape';

/** Sent on every run whatever the seed: inputs that once broke something. */
export function restSentinels(ids: RestIds): RestCase[] {
  const auth = { authorization: ids.bearer };
  const jsonHeaders = { 'content-type': JSON_TYPE };
  return [
    { method: 'GET', path: '/api/users/search?q=%00', headers: auth, expect: [400] },
    { method: 'GET', path: '/api/users/search?q=a%00b&limit=5', headers: auth, expect: [400] },
    { method: 'GET', path: `/api/uploads/${ids.peerUpload.id}%00/${ids.peerUpload.name}`, headers: {}, expect: [400, 404] },
    { method: 'GET', path: `/api/uploads/${ids.peerUpload.id}/${ids.peerUpload.name}%00`, headers: {}, expect: [400, 404] },
    { method: 'GET', path: `/api/users/${ids.peerId}/followers?cursor=%00`, headers: auth, expect: [400] },
    { method: 'POST', path: '/api/accounts/authorize', headers: jsonHeaders, body: JSON.stringify({ ...authorizeBodyFor(ids), username: 'a\u0000b' }), expect: [400] },
    { method: 'POST', path: '/api/accounts/authorize', headers: jsonHeaders, body: JSON.stringify({ ...authorizeBodyFor(ids), avatar: 'https://example.com/\u0000' }), expect: [400] },
    { method: 'POST', path: '/api/accounts/authorize', headers: jsonHeaders, body: JSON.stringify({ ...authorizeBodyFor(ids), username: 'é\uDE42' }), expect: [400] },
    { method: 'PATCH', path: '/api/accounts/settings', headers: { ...auth, ...jsonHeaders }, body: '{"language":"fr\\u0000"}', expect: [400] },
  ].map((c) => ({ ...c, category: 'sentinel' }));
}

/** Requests malformed below HTTP's semantics, written to a raw TCP socket. */
export function wireCases(rng: Rng): { category: 'wire'; label: string; bytes: Buffer }[] {
  const lines = [
    'GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    'GET /api/users/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    'POST /api/accounts/logout HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    'GET /api/health HTTP/9.9\r\nHost: x\r\n\r\n',
    'FOO /api/health HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /api/he alth HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
    'GET /api/health HTTP/1.1\r\nHost: x\r\nX: a\u0000b\r\n\r\n',
    'GET /api/health HTTP/1.1\r\nHost: x\r\n: empty-name\r\n\r\n',
    `GET /api/health HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`,
    `GET /api/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
    'POST /api/uploads HTTP/1.1\r\nHost: x\r\nX-File-Name: a\r\nContent-Length: -1\r\n\r\n',
    'POST /api/uploads HTTP/1.1\r\nHost: x\r\nX-File-Name: a\r\nContent-Length: 1e3\r\n\r\n',
    'POST /api/accounts/logout HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    'POST /api/accounts/logout HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n',
    'GET /api/health HTTP/1.1\nHost: x\n\n\u0000\u0000',
    'GET http://evil.example/api/accounts/info HTTP/1.1\r\nHost: x\r\n\r\n',
    'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n',
  ];
  const garbage = Array.from({ length: 8 }, () => rng.bytes(rng.int(1, 300)));
  return [
    ...lines.map((line) => ({ category: 'wire' as const, label: JSON.stringify(line.slice(0, 60)), bytes: Buffer.from(line, 'latin1') })),
    ...garbage.map((bytes) => ({ category: 'wire' as const, label: `${bytes.length} random bytes`, bytes })),
  ];
}
