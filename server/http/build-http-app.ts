import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { LogLevel } from '../config';
import { accountsRoutes, type AccountsRoutesDeps } from './accounts-routes';
import { conversationsRoutes } from './conversations-routes';
import { installErrorHandling } from './errors';
import { healthRoutes } from './health-routes';
import { uploadsRoutes, type UploadsRoutesDeps } from './uploads-routes';
import { usersRoutes } from './users-routes';

export interface HttpAppDeps extends AccountsRoutesDeps, UploadsRoutesDeps {
  logLevel: LogLevel;
  /** The shared node server; Fastify hands us its request handler instead of owning the server. */
  serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server;
}

export function buildHttpApp({ logLevel, serverFactory, ...deps }: HttpAppDeps): FastifyInstance {
  const app = Fastify({
    serverFactory,
    logger: {
      level: logLevel,
      // Session tokens and Firebase ID tokens are credentials: never in the logs.
      redact: { paths: ['req.headers.authorization', 'body.id_token', 'id_token', 'token'], censor: '[redacted]' },
    },
    // Only a bad URL reaches here; anything else Fastify already turns into an error response.
    frameworkErrors: (_error, _request, reply) => (reply as FastifyReply).code(400).send({ msg: 'Malformed URL.' }),
  });
  // JSON only: a text/plain body would otherwise parse to a string and fail later as a 400.
  app.removeContentTypeParser('text/plain');
  installErrorHandling(app);
  app.register(async (api) => accountsRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => usersRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => conversationsRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => uploadsRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => healthRoutes(api), { prefix: '/api' });
  return app;
}
