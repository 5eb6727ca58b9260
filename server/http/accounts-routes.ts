import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AuthorizeResponse, User } from '../../lib/contract';
import { cleanDisplayName } from '../../lib/contract/display-text';
import { authorizeRequestSchema, MAX_DISPLAY_NAME_LENGTH, settingsRequestSchema } from '../../lib/contract/schemas';
import { InvalidIdTokenError, type FirebaseTokenVerifier, type VerifiedIdToken } from '../auth/firebase-verifier';
import { deleteAccount } from '../db/account-deletion';
import { profileWatchers } from '../db/profile';
import { exportAccount } from '../db/account-export';
import { createKeyedLanes } from '../db/engine/lane';
import type { Db } from '../db/engine/open-database';
import { createSession, revokeSession } from '../db/sessions';
import { deleteSessionPushSubscriptions, deleteUserPushSubscriptions } from '../db/push-subscriptions';
import { hasAccount, setUserActive, updateSettings, upsertUserFromFirebase } from '../db/users';
import { limitAddress } from './http-rate-limit';
import type { FileStorage } from '../storage/file-storage';
import { authenticate, authenticateActive } from './authenticate';
import { HttpError, parseBody } from './errors';
import type { PresenceSettingListener, SocketDisconnector, SocketNotifier } from '../realtime/socket-reach';
import { toUser } from '../db/user-dto';

export interface AccountsRoutesDeps {
  db: Db;
  verifier: FirebaseTokenVerifier;
  sockets: SocketDisconnector & SocketNotifier;
  presence: PresenceSettingListener;
  /** Where a deleted account's uploads are erased from. */
  storage: FileStorage;
}

export function accountsRoutes(app: FastifyInstance, { db, verifier, sockets, presence, storage }: AccountsRoutesDeps): void {
  app.post('/accounts/authorize', async (request): Promise<AuthorizeResponse> => {
    const body = parseBody(authorizeRequestSchema, request.body);
    const claims = await verifyIdToken(verifier, body.id_token);
    if (!claims.revocationChecked) {
      request.log.warn({ err: claims.revocationError }, 'firebase revocation check unavailable at sign-in; the token signature was checked');
    }
    // 400, not 401: the client treats every 401 as "your session ended" and navigates away,
    // which would hide this sign-in error. The caller still did not prove they are firebase_id.
    if (claims.uid !== body.firebase_id) throw idTokenError('does not belong to the account in firebase_id.');
    // The email is the token's, never one the client made up; a different one is a client bug or a lie.
    if (body.email && claims.email && body.email.toLowerCase() !== claims.email.toLowerCase()) {
      throw new HttpError(400, { non_field_errors: ['email: does not match the signed-in account.'] });
    }

    // A first sign-in makes an account: new accounts are limited per address (config.ts, signup).
    if (!(await hasAccount(db, claims.uid))) await limitAddress(request, 'signup');
    const user = await upsertUserFromFirebase(db, {
      firebaseUid: claims.uid,
      // User-chosen profile values; the provider's when the client leaves them out.
      username: body.username || tokenName(claims.name),
      email: claims.email,
      avatar: body.avatar ?? tokenPicture(claims.picture),
      socialType: body.social_type,
      // Firebase has just vouched for the account: the next lookup is due an interval from now.
      accountCheckedNow: claims.revocationChecked,
      language: body.language,
    });
    if (!user.isActive) throw HttpError.msg(403, 'This account has been deactivated.');
    const { token, ended } = await createSession(db, user.id, request.server.sessionAuth.rules.maxPerUser);
    // Past the account's session cap the least recently used ended: so do their sockets.
    for (const sessionId of ended) sockets.disconnectSession(sessionId);
    return { token, user: toUser(user) };
  });

  // Inactive users still get 200 with is_active:false: the client's guard signs them out. Never
  // shed: the client signs out on any failure of it, and it is one indexed read. Rate-limited as usual.
  app.get('/accounts/info', { config: { neverShed: true } }, async (request) => toUser((await authenticate(db, request)).user));

  app.patch('/accounts/settings', async (request): Promise<User> => {
    const { user } = await authenticateActive(db, request);
    const body = parseBody(settingsRequestSchema, request.body);
    const messagePolicy = body.message_policy;
    const updated = await updateSettings(db, user.id, {
      language: body.language,
      messagePolicy,
      showPresence: body.show_presence,
      notificationPreview: body.notification_preview,
      notificationSound: body.notification_sound,
      readReceipts: body.read_receipts,
    });
    if (!updated) throw HttpError.msg(404, 'User not found.');
    const { before, after } = updated;
    // The privacy settings show on every device at once; the language follows at the next sign-in.
    if (messagePolicy !== undefined) sockets.notify(user.id, 'safety_changed', { type: 'message_policy', message_policy: messagePolicy });
    // Those showing this person (a conversation with them open) may message them now, or no
    // longer: they read the profile again, whose can_message is theirs to know.
    if (before.messagePolicy !== after.messagePolicy) {
      sockets.notifyWatchers(user.id, [], 'user_updated', { id: after.id, username: after.username, avatar: after.avatar });
    }
    if (before.showPresence !== after.showPresence || before.readReceipts !== after.readReceipts) {
      sockets.notify(user.id, 'safety_changed', { type: 'privacy', show_presence: after.showPresence, read_receipts: after.readReceipts });
    }
    if (before.showPresence !== after.showPresence) {
      // Saved either way; watchers who miss this learn it at their next subscription.
      await presence.settingChanged(user.id, after.showPresence).catch((error: unknown) => {
        request.log.warn({ err: error }, 'presence setting not announced');
      });
    }
    return toUser(after);
  });

  // Everything held about the caller, streamed (account-export.ts), as a file to save. Its own
  // budget: it reads the whole history. One at a time per account on this node: a second waits
  // until the first has been sent (or its client has gone), so the three the budget lets start
  // at once cost the server one export's work, not three side by side (docs/DECISIONS.md, "One
  // account's flood costs that account").
  const exporting = createKeyedLanes();
  app.get('/accounts/export', { config: { rateLimit: 'export' } }, async (request, reply) => {
    const { user } = await authenticateActive(db, request);
    const release = await exporting.hold(user.id);
    const body = Readable.from(exportAccount(db, user.id));
    // Sent, failed, or its client gone (Fastify destroys the stream): the next one's turn.
    body.once('close', release);
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="parley-data-${user.id}-${day}.json"`)
      .header('cache-control', 'no-store')
      .send(body);
  });

  // Deactivated accounts may delete themselves too: deletion is the stronger wish.
  app.delete('/accounts/me', async (request, reply) => {
    const { user } = await authenticate(db, request);
    // Read before their rows go: the people whose list shows this account.
    const watchers = await profileWatchers(db, user.id);
    const deleted = await deleteAccount(db, user.id);
    if (!deleted) throw HttpError.msg(404, 'User not found.');
    sockets.disconnectUser(user.id);
    // Their rows and open conversations show "Deleted account", with nothing to answer or follow.
    sockets.notifyWatchers(user.id, watchers, 'user_updated', { id: user.id, username: null, avatar: null, deleted: true });
    // The rows are gone, so no URL reaches these files any more; a file that fails to go is logged.
    await Promise.all(
      deleted.storageKeys.map((key) =>
        storage.remove(key).catch((error: unknown) => request.log.error({ err: error }, 'deleted account: upload file not removed')),
      ),
    );
    return reply.code(204).send();
  });

  app.post('/accounts/logout', async (request, reply) => {
    const { token } = await authenticate(db, request);
    const sessionId = await revokeSession(db, token);
    if (sessionId !== null) {
      // This device's browser gets no more pushes: they would be another person's, or nobody's.
      await deleteSessionPushSubscriptions(db, sessionId);
      sockets.disconnectSession(sessionId);
    }
    return reply.code(204).send();
  });

  app.post('/accounts/deactivate', async (request, reply) => {
    const { user } = await authenticate(db, request);
    await setUserActive(db, user.id, false);
    await deleteUserPushSubscriptions(db, user.id);
    sockets.disconnectUser(user.id);
    return reply.code(204).send();
  });
}

function idTokenError(problem: string): HttpError {
  return new HttpError(400, { non_field_errors: [`id_token: ${problem}`] });
}

async function verifyIdToken(verifier: FirebaseTokenVerifier, idToken: string): Promise<VerifiedIdToken> {
  try {
    return await verifier.verifyIdToken(idToken);
  } catch (error) {
    if (error instanceof InvalidIdTokenError) throw idTokenError(error.message);
    throw error;
  }
}

// The provider's values, held to the rules the body's own fields have (lib/contract): a name
// cleaned like one typed in, cut (never inside a surrogate pair) to the longest allowed.
function tokenName(name: string | null): string | null {
  let kept = '';
  for (const char of cleanDisplayName(name ?? '')) {
    if (kept.length + char.length > MAX_DISPLAY_NAME_LENGTH) break;
    kept += char;
  }
  return kept.trim() || null;
}

function tokenPicture(picture: string | null): string | null {
  const parsed = authorizeRequestSchema.shape.avatar.safeParse(picture);
  return (parsed.success && parsed.data) || null;
}
