// Web Push registration per browser: the server's public key, subscribe, unsubscribe.
import type { FastifyInstance } from 'fastify';
import type { PushPublicKey } from '../../lib/contract';
import { pushSubscriptionSchema, pushUnsubscribeSchema } from '../../lib/contract/schemas';
import type { Db } from '../db/engine/open-database';
import { deletePushSubscription, savePushSubscription } from '../db/push-subscriptions';
import { isAllowedEndpoint } from '../push/push-settings';
import { authenticateActive } from './authenticate';
import { HttpError, parseBody } from './errors';

export interface PushRoutesDeps {
  db: Db;
  /** Unset: this server sends no Web Push (no VAPID keys). */
  push?: { publicKey: string; endpointOrigins: readonly string[] };
}

export function pushRoutes(app: FastifyInstance, { db, push }: PushRoutesDeps): void {
  app.get('/push/public-key', async (request): Promise<PushPublicKey> => {
    await authenticateActive(db, request);
    return { public_key: push?.publicKey ?? null };
  });

  app.post('/push/subscriptions', async (request, reply) => {
    const { user, sessionId } = await authenticateActive(db, request);
    const body = parseBody(pushSubscriptionSchema, request.body);
    if (!push) throw HttpError.msg(404, 'This server sends no Web Push.');
    // The server will POST to this URL: only known push services, never an address of our choosing.
    if (!isAllowedEndpoint(body.endpoint, push.endpointOrigins)) {
      throw new HttpError(400, { non_field_errors: ['endpoint: Not a push service this server sends to.'] });
    }
    const { created } = await savePushSubscription(db, {
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      userId: user.id,
      sessionId,
    });
    return reply.code(created ? 201 : 200).send({ endpoint: body.endpoint });
  });

  // Always 204: whether someone else registered that endpoint is nobody else's business.
  app.delete('/push/subscriptions', async (request, reply) => {
    const { user } = await authenticateActive(db, request);
    const { endpoint } = parseBody(pushUnsubscribeSchema, request.body);
    await deletePushSubscription(db, user.id, endpoint);
    return reply.code(204).send();
  });
}
