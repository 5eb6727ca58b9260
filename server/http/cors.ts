import type { FastifyInstance } from 'fastify';
import { noteRefusal } from '../logging/request-logging';
import { isAllowedOrigin } from '../security/origin';

// What the browser code sends (lib/api: the ky client and the upload XHR) and may need to read.
const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE';
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-File-Name';
const EXPOSED_HEADERS = 'Retry-After, X-Request-Id';
const PREFLIGHT_MAX_AGE_SECONDS = '600';
const MAX_LOGGED_ORIGIN = 200;

/**
 * CORS for a split deployment (the pages on another origin, ALLOWED_ORIGINS set): requests from
 * an allowed origin get Access-Control-Allow-Origin, and preflights are answered here. A request
 * from any other browser origin is refused (403 {msg}), as its socket handshake would be. No
 * credentials: the API authenticates by the Authorization header, never by cookie. Requests
 * without an Origin (load balancers, curl, same-origin GETs) pass untouched. Without an
 * allow-list (one origin) nothing is added: the browser's same-origin policy is all there is.
 */
export function installCors(app: FastifyInstance, allowedOrigins: readonly string[] | null): void {
  if (!allowedOrigins) return;
  app.addHook('onRequest', async (request, reply) => {
    // The answer depends on Origin, so caches must keep one per Origin.
    reply.header('vary', 'Origin');
    const { origin } = request.headers;
    if (origin === undefined) return;
    if (!isAllowedOrigin(origin, request.headers.host, allowedOrigins)) {
      // Counted as a refusal (a 403) against its address, the Origin as the sample.
      noteRefusal(request, `origin not allowed: ${origin.slice(0, MAX_LOGGED_ORIGIN)}`);
      return reply.code(403).send({ msg: 'Origin not allowed.' });
    }
    reply.header('access-control-allow-origin', new URL(origin).origin);
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      reply.header('access-control-allow-methods', ALLOWED_METHODS);
      reply.header('access-control-allow-headers', ALLOWED_HEADERS);
      reply.header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS);
      return reply.code(204).send();
    }
  });
}
