// What a person reads when something fails: a plain sentence in their language, chosen from the
// kind of failure. The HTTP client's own message (the order of docs/CLIENT-RULES.md, "HTTP": a
// field error, the server's msg, the status…) stays what the client passes on and logs to the
// console; it is never put on screen, where "Request failed due to a network error: GET http://…"
// helps nobody.
import { CHANGE_REFUSALS, MAX_REACTIONS_PER_PERSON, type ChangeRefusal } from '@/lib/contract';
import { i18n } from '@/lib/i18n/i18n';

export type ErrorKind =
  | 'network'
  | 'session'
  | 'forbidden'
  | 'notFound'
  | 'tooLarge'
  | 'rateLimited'
  | 'server'
  | 'recipientGone'
  | 'attachmentGone'
  | 'invalid'
  | 'unknown';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function statusOf(error: unknown): number | undefined {
  if (!isRecord(error) || !isRecord(error.response)) return undefined;
  return typeof error.response.status === 'number' ? error.response.status : undefined;
}

function kindOfStatus(status: number): ErrorKind {
  if (status === 401) return 'session';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'notFound';
  if (status === 413) return 'tooLarge';
  if (status === 429) return 'rateLimited';
  if (status === 408 || status >= 500) return 'server';
  if (status >= 400) return 'invalid';
  return 'unknown';
}

/** A refusal's `non_field_errors` lines start with the field they are about. */
function kindOfFieldErrors(lines: unknown[]): ErrorKind {
  const fields = lines.filter((line): line is string => typeof line === 'string').map((line) => line.split(':')[0]);
  if (fields.includes('recipient_id')) return 'recipientGone';
  if (fields.includes('attachment_id')) return 'attachmentGone';
  return 'invalid';
}

/** A socket ack's `{msg}` (docs/API.md lists them): passing trouble, mostly. */
function kindOfMsg(msg: string): ErrorKind {
  if (/too many/i.test(msg)) return 'rateLimited';
  if (/connect|timed out|restarting|init/i.test(msg)) return 'network';
  if (/deactivated/i.test(msg)) return 'forbidden';
  if (/internal/i.test(msg)) return 'server';
  return 'unknown';
}

/**
 * The kind of a failure: a ky or upload error (by its response's status, or none: the network),
 * or an error body as a socket ack carries it (`{non_field_errors}`: refused; `{msg}`: passing).
 */
export function errorKind(error: unknown): ErrorKind {
  const status = statusOf(error);
  if (status !== undefined) return kindOfStatus(status);
  if (isRecord(error) && Array.isArray(error.non_field_errors)) return kindOfFieldErrors(error.non_field_errors);
  if (isRecord(error) && typeof error.msg === 'string') return kindOfMsg(error.msg);
  if (error instanceof Error) {
    // ky's NetworkError and TimeoutError, fetch's TypeError, our UploadError without a response:
    // no answer came.
    if (['NetworkError', 'TimeoutError', 'TypeError', 'UploadError'].includes(error.name)) return 'network';
  }
  return 'unknown';
}

/** The sentence for a failure, in the language shown now. */
export function userMessage(error: unknown): string {
  return i18n.t(`errors.${errorKind(error)}`);
}

/**
 * Why a change to a message failed, in the language shown now: a refusal the contract names
 * (CHANGE_REFUSALS) by its own sentence, anything else by its kind, as userMessage.
 */
export function changeFailureMessage(error: unknown): string {
  const lines = isRecord(error) && Array.isArray(error.non_field_errors) ? error.non_field_errors : [];
  const refusal = (Object.keys(CHANGE_REFUSALS) as ChangeRefusal[]).find((key) => lines.includes(CHANGE_REFUSALS[key]));
  return refusal ? i18n.t(`messageActions.refused.${REFUSAL_KEYS[refusal]}`, { max: MAX_REACTIONS_PER_PERSON }) : userMessage(error);
}

// Keys apart from the refusals' names: a key ending in `_many` or `_one` would read as a plural form.
const REFUSAL_KEYS = {
  not_found: 'notFound',
  not_yours: 'notYours',
  deleted: 'deleted',
  too_late: 'tooLate',
  not_allowed: 'notAllowed',
  empty: 'empty',
  too_many: 'reactionLimit',
} as const satisfies Record<ChangeRefusal, string>;
