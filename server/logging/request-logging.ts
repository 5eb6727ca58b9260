import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refusedCaller, type RefusalLog } from './refusal-log';

const REQUEST_ID_HEADER = 'x-request-id';
// What we accept from a caller (a proxy, a load balancer, a client tracing its calls); anything
// else could forge log lines or bloat them, and is replaced by a fresh id.
const REQUEST_ID_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/** Fastify's genReqId: the caller's x-request-id when it is sane, else a random UUID. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && REQUEST_ID_SHAPE.test(incoming) ? incoming : randomUUID();
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Refusals counted into summary lines (refusal-log.ts), HTTP and sockets alike. */
    refusals: RefusalLog;
  }
}

// What the hooks learn along the way: whose request it was, and why it was refused.
const callers = new WeakMap<FastifyRequest, number>();
const refusalsOf = new WeakMap<FastifyRequest, { code?: unknown; reason: string }>();

/** The request's account, once its session is known (authenticate.ts): refusals count against it. */
export function noteCaller(request: FastifyRequest, userId: number): void {
  callers.set(request, userId);
}

/** A refusal whose reason no error carries (a 503 for shed load, a 403 sent directly): counted with it. */
export function noteRefusal(request: FastifyRequest, reason: string): void {
  refusalsOf.set(request, { reason });
}

/**
 * Every response carries its request id, so a user's report or a client log leads to the server's
 * lines. A request answered is one info line ("request completed"); a refused one (4xx, shed) is
 * counted against its account or address into the refusal summary, its own detail at debug.
 * Server faults are logged by the error handler, with the error. Fastify's own request lines are
 * off (build-http-app.ts): they wrote two lines for every refused request too.
 */
export function installRequestLogging(app: FastifyInstance, refusals: RefusalLog): void {
  app.decorate('refusals', refusals);
  app.addHook('onClose', async () => refusals.stop());
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    request.log.debug({ req: request }, 'incoming request');
  });
  app.addHook('onError', async (request, _reply, error) => {
    const { statusCode, code } = error as { statusCode?: unknown; code?: unknown };
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) refusalsOf.set(request, { code, reason: error.message });
  });
  app.addHook('onResponse', async (request, reply) => {
    const { statusCode } = reply;
    const refusal = refusalsOf.get(request) ?? (statusCode >= 400 && statusCode < 500 ? { reason: '' } : undefined);
    if (!refusal) {
      request.log.info({ req: request, res: { statusCode }, responseTime: reply.elapsedTime }, 'request completed');
      return;
    }
    request.log.debug({ req: request, statusCode, code: refusal.code, reason: refusal.reason }, 'request refused');
    const route = request.routeOptions.url ?? '(no route)';
    refusals.count(refusedCaller(callers.get(request), request.ip), `${statusCode} ${request.method} ${route}`, refusal.reason || undefined);
  });
}
