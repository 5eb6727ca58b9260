import type { FastifyInstance } from 'fastify';
import type { AuthorizeResponse, User } from '../../lib/contract';
import { authorizeRequestSchema, settingsRequestSchema } from '../../lib/contract/schemas';
import { InvalidIdTokenError, type FirebaseTokenVerifier, type IdTokenClaims } from '../auth/firebase-verifier';
import type { Db } from '../db/open-database';
import { createSession, revokeSession } from '../db/sessions';
import { deleteSessionPushSubscriptions, deleteUserPushSubscriptions } from '../db/push-subscriptions';
import { setUserActive, updateSettings, upsertUserFromFirebase } from '../db/users';
import { authenticate, authenticateActive } from './authenticate';
import { HttpError, parseBody } from './errors';
import { toUser } from './user-dto';

/** How the HTTP side closes sockets whose session or account just ended. */
export interface SocketDisconnector {
  disconnectUser(userId: number): void;
  disconnectSession(sessionId: number): void;
}

export interface AccountsRoutesDeps {
  db: Db;
  verifier: FirebaseTokenVerifier;
  sockets: SocketDisconnector;
}

export function accountsRoutes(app: FastifyInstance, { db, verifier, sockets }: AccountsRoutesDeps): void {
  app.post('/accounts/authorize', async (request): Promise<AuthorizeResponse> => {
    const body = parseBody(authorizeRequestSchema, request.body);
    const claims = await verifyIdToken(verifier, body.id_token);
    // 400, not 401: the client treats every 401 as "your session ended" and navigates away,
    // which would hide this sign-in error. The caller still did not prove they are firebase_id.
    if (claims.uid !== body.firebase_id) throw idTokenError('does not belong to the account in firebase_id.');
    // The email is the token's, never one the client made up; a different one is a client bug or a lie.
    if (body.email && claims.email && body.email.toLowerCase() !== claims.email.toLowerCase()) {
      throw new HttpError(400, { non_field_errors: ['email: does not match the signed-in account.'] });
    }

    const user = await upsertUserFromFirebase(db, {
      firebaseUid: claims.uid,
      // User-chosen profile values; the provider's when the client leaves them out.
      username: body.username || tokenName(claims.name),
      email: claims.email,
      avatar: body.avatar ?? tokenPicture(claims.picture),
      socialType: body.social_type,
    });
    if (!user.isActive) throw HttpError.msg(403, 'This account has been deactivated.');
    const { token } = await createSession(db, user.id);
    return { token, user: toUser(user) };
  });

  // Inactive users still get 200 with is_active:false: the client's guard signs them out.
  app.get('/accounts/info', async (request) => toUser((await authenticate(db, request)).user));

  app.patch('/accounts/settings', async (request): Promise<User> => {
    const { user } = await authenticateActive(db, request);
    const body = parseBody(settingsRequestSchema, request.body);
    const updated = await updateSettings(db, user.id, {
      language: body.language,
      notificationPreview: body.notification_preview,
      notificationSound: body.notification_sound,
    });
    if (!updated) throw HttpError.msg(404, 'User not found.');
    return toUser(updated);
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

async function verifyIdToken(verifier: FirebaseTokenVerifier, idToken: string): Promise<IdTokenClaims> {
  try {
    return await verifier.verifyIdToken(idToken);
  } catch (error) {
    if (error instanceof InvalidIdTokenError) throw idTokenError(error.message);
    throw error;
  }
}

// The provider's values, held to the limits the body's own fields have (lib/contract).
function tokenName(name: string | null): string | null {
  return name?.trim().slice(0, 100) || null;
}

function tokenPicture(picture: string | null): string | null {
  const parsed = authorizeRequestSchema.shape.avatar.safeParse(picture);
  return (parsed.success && parsed.data) || null;
}
