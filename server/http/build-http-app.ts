import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import { type LogLevel, loggerOptions, type LogDestination } from '../logging/logger-options';
import type { TrustProxy } from '../env-values';
import { createRefusalLog, type RefusalLog, type RefusalLogOptions } from '../logging/refusal-log';
import { actingFor } from '../db/engine/account-turns';
import { installRequestLogging, requestId } from '../logging/request-logging';
import { MAX_JSON_BODY_BYTES } from '../security/payload-limits';
import { installUserRateLimits } from './http-rate-limit';
import { installLoadShedding } from './load-shedding';
import type { RateLimiters } from '../security/rate-limit';
import { accountsRoutes, type AccountsRoutesDeps } from './accounts-routes';
import { conversationsRoutes } from './conversations-routes';
import { messageSearchRoutes } from './message-search-routes';
import { installCors } from './cors';
import { installErrorHandling } from './errors';
import { profileRoutes } from './profile-routes';
import { safetyRoutes } from './safety-routes';
import { healthRoutes, type HealthRoutesDeps } from './health-routes';
import { pushRoutes, type PushRoutesDeps } from './push-routes';
import { withSecurityHeaders } from './security-headers';
import { uploadsRoutes, type UploadsRoutesDeps } from './uploads-routes';
import { usersRoutes } from './users-routes';

export interface HttpAppDeps extends AccountsRoutesDeps, HealthRoutesDeps, PushRoutesDeps, UploadsRoutesDeps {
  logLevel: LogLevel;
  /** Which proxies' X-Forwarded-For gives the client's address (config.ts, TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** Where log lines go; stdout by default. */
  logDestination?: LogDestination;
  /** How refusals are summed up (logging/refusal-log.ts); its defaults unless given. */
  refusalLog?: RefusalLogOptions;
  /** Per-user budgets, taken by authenticate() on every authenticated route. */
  limiters: RateLimiters;
  /** Mean event-loop delay (ms) over which requests are shed with 503; 0: never. */
  shedEventLoopDelayMs: number;
  /** Production adds Strict-Transport-Security. */
  production?: boolean;
  /** Split deployment: browser origins that get CORS (cors.ts); null: same origin only, no CORS. */
  allowedOrigins?: readonly string[] | null;
  /** The shared node server; Fastify hands us its request handler instead of owning the server. */
  serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server;
}

/** The Fastify app, whether it sheds load right now (for the socket side to agree with it), and its refusal count. */
const ANONYMOUS_REQUESTS = 'anonymous requests';

export function buildHttpApp({
  logLevel,
  trustProxy,
  logDestination,
  refusalLog,
  limiters,
  shedEventLoopDelayMs,
  production = false,
  allowedOrigins = null,
  serverFactory,
  ...deps
}: HttpAppDeps): { app: FastifyInstance; overloaded: () => boolean; refusals: RefusalLog } {
  const app = Fastify({
    serverFactory: (handler) => serverFactory(withSecurityHeaders(handler, { production })),
    // Credentials and message text are redacted; requests are logged without headers or bodies.
    logger: loggerOptions(logLevel, logDestination),
    genReqId: requestId,
    // request.ip: the client behind the trusted proxies, for the per-address limits and the log.
    trustProxy,
    // Ours instead (request-logging.ts): one line per answered request, refusals only counted.
    logController: new LogController({ disableRequestLogging: true }),
    // JSON bodies only; the upload route streams raw bodies under its own limit.
    bodyLimit: MAX_JSON_BODY_BYTES,
    // Only a bad URL reaches here; anything else Fastify already turns into an error response.
    frameworkErrors: (_error, _request, reply) => (reply as FastifyReply).code(400).send({ msg: 'Malformed URL.' }),
  });
  // JSON only: a text/plain body would otherwise parse to a string and fail later as a 400.
  app.removeContentTypeParser('text/plain');
  // First, so that every answer (errors and 429s included) carries the CORS headers.
  installCors(app, allowedOrigins);
  installErrorHandling(app);
  const refusals = createRefusalLog(app.log, refusalLog);
  installRequestLogging(app, refusals);
  // A request's queries are its caller's, in turn with everyone else's (db/account-turns.ts):
  // one turn for all callers not known yet, until authenticate() reads the session.
  app.addHook('preHandler', (_request, _reply, done) => actingFor(ANONYMOUS_REQUESTS, done));
  installUserRateLimits(app, limiters);
  const overloaded = installLoadShedding(app, shedEventLoopDelayMs);
  app.register(async (api) => accountsRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => profileRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => usersRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => conversationsRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => messageSearchRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => uploadsRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => safetyRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => pushRoutes(api, deps), { prefix: '/api' });
  app.register(async (api) => healthRoutes(api, deps), { prefix: '/api' });
  return { app, overloaded, refusals };
}
