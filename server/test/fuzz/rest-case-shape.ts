// What a REST case is and the ids it is built from, the hostile ids and token alphabet more than
// one group of generators draws on, and the fuzzing user's credential as request parts.

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
  /** The fuzzing user's conversation with the peer, and one of two other people (refused like a missing one). */
  conversationId: number;
  foreignConversationId: number;
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

export const BAD_IDS = [
  '-1', '0', '-0', '1.5', '1.0', '1e3', '0x1f', '0b1', 'abc', 'NaN', 'Infinity', 'null', 'undefined', 'true',
  '99999999999999999999', '2147483648', '4294967297', '9'.repeat(400), '%20', '%201', '1%20', '+1', '%2B1', '01',
  '00000001', '1_000', '1,2', '%5B%5D', '%7B%7D', '%00', '1%00', '1%2F', '%2F1', '1%23', "1'", '1%27%20OR%201%3D1',
  encodeURIComponent('١'), '%EF%BC%91', '%E2%80%8B1', '..%2f1', '%2e', '-', '%', '%ZZ', '%E0%A4%A', 'é', '1;x',
];

export const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** The fuzzing user's token, its authorization header (alone, and with a JSON content type), and a route with its id filled in. */
export function requestParts(ids: RestIds) {
  const token = ids.bearer.slice('Bearer '.length);
  const auth = { authorization: ids.bearer };
  const json = (extra: Record<string, string> = {}) => ({ ...auth, 'content-type': JSON_TYPE, ...extra });
  const routeWith = (route: string, id: string | number) => route.replace(':id', String(id));
  return { token, auth, json, routeWith };
}
