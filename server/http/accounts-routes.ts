import type { FastifyInstance } from 'fastify';
import { authorizeRequestSchema, type AuthorizeResponse } from '../../lib/contract';
import { InvalidIdTokenError, type FirebaseTokenVerifier } from '../auth/firebase-verifier';
import type { Db } from '../db/open-database';
import { createSession, revokeSession } from '../db/sessions';
import { setUserActive, upsertUserFromFirebase } from '../db/users';
import { authenticate } from './authenticate';
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
    const uid = await verifyUid(verifier, body.id_token);
    // 401, not 400: the caller did not prove they are firebase_id, whatever the body says.
    if (uid !== body.firebase_id) throw HttpError.msg(401, 'The ID token does not belong to this firebase_id.');

    const user = await upsertUserFromFirebase(db, {
      firebaseUid: uid,
      username: body.username || null,
      email: body.email ?? null,
      avatar: body.avatar ?? null,
      socialType: body.social_type,
    });
    if (!user.isActive) throw HttpError.msg(403, 'This account has been deactivated.');
    const { token } = await createSession(db, user.id);
    return { token, user: toUser(user) };
  });

  // Inactive users still get 200 with is_active:false: the client signs them out (SPEC §4).
  app.get('/accounts/info', async (request) => toUser((await authenticate(db, request)).user));

  app.post('/accounts/logout', async (request, reply) => {
    const { token } = await authenticate(db, request);
    const sessionId = await revokeSession(db, token);
    if (sessionId !== null) sockets.disconnectSession(sessionId);
    return reply.code(204).send();
  });

  app.post('/accounts/deactivate', async (request, reply) => {
    const { user } = await authenticate(db, request);
    await setUserActive(db, user.id, false);
    sockets.disconnectUser(user.id);
    return reply.code(204).send();
  });
}

async function verifyUid(verifier: FirebaseTokenVerifier, idToken: string): Promise<string> {
  try {
    return (await verifier.verifyIdToken(idToken)).uid;
  } catch (error) {
    if (error instanceof InvalidIdTokenError) throw HttpError.msg(401, error.message);
    throw error;
  }
}
