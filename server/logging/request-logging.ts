import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
// What we accept from a caller (a proxy, a load balancer, a client tracing its calls); anything
// else could forge log lines or bloat them, and is replaced by a fresh id.
const REQUEST_ID_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/** Fastify's genReqId: the caller's x-request-id when it is sane, else a random UUID. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && REQUEST_ID_SHAPE.test(incoming) ? incoming : randomUUID();
}

/**
 * Every response carries its request id, so a user's report or a client log leads to the server's
 * lines. Client faults (4xx: bad input, no session, rate limits) are logged at info with their
 * reason and no stack; server faults are logged by the error handler, with the error.
 */
export function installRequestLogging(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  app.addHook('onError', async (request, _reply, error) => {
    const { statusCode, code } = error as { statusCode?: unknown; code?: unknown };
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      request.log.info({ statusCode, code, reason: error.message }, 'request refused');
    }
  });
}
