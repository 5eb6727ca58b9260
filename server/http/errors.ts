import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { ErrorBody } from '../../lib/contract';
import { formatIssues, unstorableTextIssues } from '../validation';

/** An expected failure, already in one of the error shapes of docs/API.md. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: ErrorBody,
    /** Sent with the answer (Retry-After, Connection: close). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super('msg' in body ? body.msg : body.non_field_errors.join('; '));
  }

  static msg(statusCode: number, msg: string): HttpError {
    return new HttpError(statusCode, { msg });
  }
}

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw new HttpError(400, { non_field_errors: formatIssues(result.error.issues) });
  const unstorable = unstorableTextIssues(result.data);
  if (unstorable.length > 0) throw new HttpError(400, { non_field_errors: unstorable });
  return result.data;
}

const malformedUrl = () => HttpError.msg(400, 'Malformed URL.');

/**
 * U+0000 reaches a handler only percent-encoded in the URL (Node refuses a raw one), and no
 * query can take it: refused up front as a malformed URL, whichever route (and however it reads
 * its parameters), instead of failing in the database as a 500.
 */
function refuseNulInUrls(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.url.includes('%00')) throw malformedUrl();
  });
}

const PARSER_ERRORS: Record<string, HttpError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: new HttpError(400, { non_field_errors: ['The request body is not valid JSON.'] }),
  FST_ERR_CTP_EMPTY_JSON_BODY: new HttpError(400, { non_field_errors: ['The request body is empty.'] }),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: HttpError.msg(415, 'Unsupported content type; send application/json.'),
  FST_ERR_CTP_BODY_TOO_LARGE: HttpError.msg(413, 'The request body is too large.'),
};

function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  if (typeof code === 'string' && PARSER_ERRORS[code]) return PARSER_ERRORS[code];
  // Remaining client errors raised by Fastify itself (bad Content-Length, bad URL encoding...):
  // their messages are generic and safe to show.
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return HttpError.msg(statusCode, error instanceof Error ? error.message : 'Bad request');
  }
  return null;
}

/**
 * Every /api response, including failures Fastify raises itself, uses the spec's error bodies;
 * input that could only fail as a server fault (a NUL in the URL) is refused as the client's.
 */
export function installErrorHandling(app: FastifyInstance): void {
  refuseNulInUrls(app);
  app.setErrorHandler((error, request, reply) => {
    const known = toHttpError(error);
    if (known) return reply.code(known.statusCode).headers(known.headers).send(known.body);
    // The stack goes to the log only; the client learns nothing about internals.
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ msg: 'Internal server error' });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ msg: 'Not found' }));
}
