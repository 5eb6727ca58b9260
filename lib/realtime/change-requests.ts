// The user's changes to messages: reactions, edits, unsending (deleting for oneself, sent after its
// Undo time, is lib/realtime/delayed-hides.ts). Each is one socket request; the server writes it
// into its conversation's stream and tells every member's tabs (docs/DELIVERY.md, "Changes to
// messages"). The acting tab applies its ack, the change as pushed, at once.
import { changeFailureMessage } from '@/lib/api/user-message';
import type { Ack, ChangeResult } from '@/lib/contract/index';
import { socketService } from '@/lib/socket/socket-service';
import { applyOwnChange } from './messaging-session';

/** Done, or refused with a sentence for the reader, in their language. */
export type ChangeAnswer = { ok: true } | { ok: false; error: string };

/** Without a server answer: the windows the server uses by default (server/config.ts). */
const DEFAULT_EDIT_WINDOW_MS = 15 * 60_000;
const DEFAULT_UNSEND_WINDOW_MS = 24 * 3600_000;

function answer(ack: Ack<ChangeResult>): ChangeAnswer {
  if ('data' in ack) {
    if (ack.data.change) applyOwnChange(ack.data.change);
    return { ok: true };
  }
  return { ok: false, error: changeFailureMessage(ack.error) };
}

export async function reactToMessage(messageId: number, emoji: string, add: boolean): Promise<ChangeAnswer> {
  return answer(await socketService.request('react', { message_id: messageId, emoji, add }));
}

export async function editMessage(messageId: number, text: string): Promise<ChangeAnswer> {
  return answer(await socketService.request('edit', { message_id: messageId, text }));
}

export async function unsendMessage(messageId: number): Promise<ChangeAnswer> {
  return answer(await socketService.request('unsend', { message_id: messageId }));
}

/** Whether the user may still edit (or unsend) a message sent at `createdAt`, by this server's windows. */
export function withinWindow(createdAt: string, kind: 'edit' | 'unsend', now = Date.now()): boolean {
  const rules = socketService.serverRules();
  const windowMs = kind === 'edit' ? (rules?.edit_window_ms ?? DEFAULT_EDIT_WINDOW_MS) : (rules?.unsend_window_ms ?? DEFAULT_UNSEND_WINDOW_MS);
  const sent = Date.parse(createdAt);
  return !Number.isNaN(sent) && now - sent <= windowMs;
}
