// Bodies for the push subscription and sign-in routes: well-formed ones, and ones their schema
// refuses (so never a subscription registered or a sign-in that upserts the user).
import { authorizeRequestSchema, pushSubscriptionSchema, pushUnsubscribeSchema } from '../../../lib/contract/schemas';
import { NASTY_KEYS, hostileString, hostileValue, jsonRoundTrip } from './hostile-values';
import type { Rng } from './prng';
import { JSON_TYPE, type RestCase, type RestIds } from './rest-case-shape';
import { isStorableText } from './socket-cases';

/** An allowed-looking push service endpoint (the fuzzed server sends no push: nothing reaches it). */
export const PUSH_ENDPOINT = 'https://fcm.googleapis.com/fcm/send/fuzz';

/** A well-formed PushSubscription.toJSON(): an uncompressed P-256 point and a 16-byte secret. */
export function pushSubscriptionBody(): Record<string, unknown> {
  const point = Buffer.alloc(65, 7);
  point[0] = 4;
  return { endpoint: PUSH_ENDPOINT, expirationTime: null, keys: { p256dh: point.toString('base64url'), auth: Buffer.alloc(16, 9).toString('base64url') } };
}

/** A subscribe or unsubscribe body the schema refuses (so never one that would be registered). */
export function refusedPushBody(rng: Rng, bearer: string): RestCase {
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
    avatar: 'https://example.com/a.png', id_token: ids.account.idToken, language: 'fr',
  };
}

/** An authorize body that must be refused: never a sign-in that would upsert the user or open a session. */
export function refusedAuthorizeBody(rng: Rng, ids: RestIds): string {
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
    () => ({ ...valid, language: rng.pick(['de', 'FR', 'fr-FR', '', null, ['fr']]) }),
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
