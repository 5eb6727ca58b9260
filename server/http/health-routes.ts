import type { FastifyInstance } from 'fastify';

/** Liveness: the process is up and serving HTTP (readiness with dependencies comes with issue #6). */
export function healthRoutes(app: FastifyInstance): void {
  app.get('/health', async () => ({ status: 'ok' }));
}
