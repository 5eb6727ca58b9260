// What the composer may send, checked before anything is sent (the server checks the same).
import { MAX_MESSAGE_LENGTH } from '@/lib/contract';

export type MessageProblem =
  | { reason: 'empty' }
  /** `length` and `max` in characters as String.length counts them, like the server. */
  | { reason: 'too_long'; length: number; max: number };

/** The problem with this (already trimmed) text, or null when it can be sent. */
export function validateMessage(text: string, hasAttachment: boolean): MessageProblem | null {
  if (text.length > MAX_MESSAGE_LENGTH) return { reason: 'too_long', length: text.length, max: MAX_MESSAGE_LENGTH };
  if (text.trim() === '' && !hasAttachment) return { reason: 'empty' };
  return null;
}

/** An English sentence for logs and tests; the UI shows its own translated text. */
export function describeProblem(problem: MessageProblem): string {
  return problem.reason === 'empty'
    ? 'A message needs text or an attachment.'
    : `Message is too long: ${problem.length} characters, at most ${problem.max}.`;
}
