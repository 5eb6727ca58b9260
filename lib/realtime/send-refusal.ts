// Why the server refused a message for good (a field error: the outbox gives up on it), as the
// reader is told. Such a message offers no Retry, since asking again gets the same answer; it can
// be removed. Passing trouble (busy, offline, restarting) is retried by the outbox itself.
import { MAX_MESSAGE_LENGTH, SEND_REFUSALS, type ErrorBody, type SendRefusal } from '@/lib/contract';
import type { TFunction } from '@/lib/i18n/translator';

const LINES = Object.entries(SEND_REFUSALS) as [keyof typeof SEND_REFUSALS, string][];

/** The refusal a `send` ack's field errors name. */
export function sendRefusal(body: ErrorBody): SendRefusal {
  const lines = 'non_field_errors' in body && Array.isArray(body.non_field_errors) ? body.non_field_errors : [];
  for (const [refusal, line] of LINES) if (lines.includes(line)) return refusal;
  // The payload's own check: only the text's length can fail it once the composer has checked the rest.
  if (lines.some((line) => line.startsWith('text:'))) return 'too_long';
  return 'invalid';
}

// Keys apart from the refusals' names, in the texts' own style.
const KEYS = {
  recipient_gone: 'recipientGone',
  not_allowed: 'notAllowed',
  self: 'self',
  attachment_gone: 'attachmentGone',
  reply_gone: 'replyGone',
  sender_gone: 'senderGone',
  too_long: 'tooLong',
  invalid: 'invalid',
} as const satisfies Record<SendRefusal, string>;

/** The refusal in the reader's words. */
export function refusalText(refusal: SendRefusal, t: TFunction): string {
  return t(`thread.refusals.${KEYS[refusal]}`, { max: MAX_MESSAGE_LENGTH });
}
