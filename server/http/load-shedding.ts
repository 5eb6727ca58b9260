import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';
import { noteRefusal } from '../logging/request-logging';
import { SHED_MSG, SHED_RETRY_AFTER_SECONDS } from '../security/shed';

/** How often the event-loop delay is sampled, and over how long its mean is taken. */
const SAMPLE_INTERVAL_MS = 1_000;

/**
 * Sheds load before the event loop drowns: while the mean event-loop delay over the last second is
 * above `maxEventLoopDelayMs`, every /api request but the probes (and accounts/info, whose failure
 * signs the client out: docs/CLIENT-RULES.md) is answered 503 `{msg}` with Retry-After, at once, before any
 * work; socket events get a busy ack (socket-rate-limit.ts). @fastify/under-pressure measures it.
 * Returns whether the node is shedding now; 0 switches it off.
 */
export function installLoadShedding(app: FastifyInstance, maxEventLoopDelayMs: number): () => boolean {
  if (maxEventLoopDelayMs <= 0) return () => false;
  // Registered before the routes: its onRequest hook sits at the root and so runs for all of them.
  void app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    sampleInterval: SAMPLE_INTERVAL_MS,
    // Nothing returned: under-pressure lets the request through. A rejection goes to the error handler.
    pressureHandler: (request, _reply, type, value) => {
      const { neverShed = false, closeOnRefusal = false } = request.routeOptions.config;
      if (neverShed) return undefined;
      request.log.debug({ type, value }, 'request shed: server busy');
      noteRefusal(request, SHED_MSG);
      const headers = { 'retry-after': String(SHED_RETRY_AFTER_SECONDS), ...(closeOnRefusal && { connection: 'close' }) };
      return Promise.reject(new HttpError(503, { msg: SHED_MSG }, headers));
    },
  });
  // Asked only once the server listens, when the plugin has loaded.
  return () => app.isUnderPressure();
}
