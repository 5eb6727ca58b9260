import type { FastifyRequest, FastifyServerOptions } from 'fastify';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where log lines go; stdout when not given. Tests pass a stream that keeps them. */
export interface LogDestination {
  write(line: string): void;
}

const CENSOR = '[redacted]';
// Credentials and message text, at the top of a log object and up to two levels down
// (`req.headers.authorization`, `payload.text`, `body.id_token`, `auth.token`, `messages[0].text`).
const SECRET_KEYS = ['authorization', 'cookie', 'token', 'id_token', 'text'];
const REDACT_PATHS = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);
// Database errors quote the values they failed on: a query's parameters (message text, token
// hashes) and Postgres' `detail` ("Failing row contains (…)").
const SECRET_ERROR_FIELDS = ['params', 'detail'];
const MAX_CAUSE_DEPTH = 5;

// Query parameters whose values are logged: the API's own paging and download switches. Every other
// one is redacted: what people typed into search (q), and whatever a caller put in a URL that it
// should not have (?token=, ?access_token=…). The upload URLs' id is the capability to read the
// file (and the name is the user's): as private as message text.
const LOGGED_PARAMS: ReadonlySet<string> = new Set(['limit', 'cursor', 'around', 'before', 'after', 'download']);
const UPLOAD_URL = /^(\/api\/uploads\/)[^/]+\/[^/]*/;

function decodedKey(part: string): string {
  const key = part.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

/** The URL as logged: search terms, unknown parameters' values and upload capabilities replaced by [redacted]. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(UPLOAD_URL, `$1${CENSOR}/${CENSOR}`);
  if (queryAt < 0) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((part) => {
      if (LOGGED_PARAMS.has(decodedKey(part))) return part;
      return part.includes('=') ? `${part.split('=', 1)[0]}=${CENSOR}` : CENSOR;
    })
    .join('&');
  return `${path}?${query}`;
}

/**
 * What a request is in the logs: never headers (Authorization), never a body, and its URL without
 * search terms or upload capabilities. Fastify binds the request id (`reqId`) to every line of
 * the request already.
 */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * pino's error shape (type, message, stack, own fields, cause), with what a database error quotes
 * taken out: drizzle's "Failed query: … params: <values>" in both the message and the stack.
 */
function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const out: Record<string, unknown> = { type: error.constructor.name || error.name };
  for (const [key, value] of Object.entries(error)) if (key !== 'cause') out[key] = value;
  let { message, stack = '' } = error;
  const params: unknown = (error as { params?: unknown }).params;
  if (Array.isArray(params) && params.length > 0) {
    const quoted = `params: ${String(params)}`;
    message = message.split(quoted).join(`params: ${CENSOR}`);
    stack = stack.split(quoted).join(`params: ${CENSOR}`);
  }
  for (const field of SECRET_ERROR_FIELDS) if (field in out) out[field] = CENSOR;
  out.message = message;
  out.stack = stack;
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** Fastify's `logger` option: one pino for HTTP and sockets, with redaction and safe serializers. */
export function loggerOptions(level: LogLevel, destination?: LogDestination): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    // Fastify's and pino's serializer types disagree with each other; these are plain functions.
    serializers: { req: serializeRequest, err: serializeError } as unknown as LoggerOptions['serializers'],
    ...(destination && { stream: destination }),
  };
}
