import type { FastifyInstance } from 'fastify';
import { NotReadyError, type Readiness } from '../readiness';

export interface HealthRoutesDeps {
  readiness: Readiness;
}

/**
 * /health is liveness: the process is up and serving HTTP, whatever its dependencies do (restart
 * it when this fails). /ready is readiness: send it traffic (503 `{msg}` while the database or
 * Redis is unreachable, or while it shuts down).
 */
export function healthRoutes(app: FastifyInstance, { readiness }: HealthRoutesDeps): void {
  // Probes are never shed: a busy node is alive, and its readiness says what it really is.
  app.get('/health', { config: { neverShed: true } }, async () => ({ status: 'ok' }));
  app.get('/ready', { config: { neverShed: true } }, async (request, reply) => {
    try {
      await readiness.check();
      return { status: 'ok' };
    } catch (error) {
      const msg = error instanceof NotReadyError ? error.message : 'Not ready.';
      // The reason behind it (a connection error) goes to the log, not to whoever asks.
      const cause = error instanceof NotReadyError ? error.cause : error;
      if (cause) request.log.warn({ err: cause, msg }, 'not ready');
      else request.log.info({ msg }, 'not ready');
      return reply.code(503).send({ msg });
    }
  });
}
