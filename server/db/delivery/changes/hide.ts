// Deleting a message for oneself ("Delete for me"): any message of the conversation, for the
// caller's devices only.
import { hideMessage } from '../change-batch-sql';
import type { Decision, MessageCase } from './plan';

export function decideHide({ request, context }: MessageCase<'hide'>): Decision {
  const { message, conversation, counted } = context;
  const own = message.senderId === request.actorId;
  // For the caller only, on all their devices. A received message still unread (past the
  // caller's read position, not unsent) stops counting (no receipt): gone from the thread, it
  // could never be read otherwise. The change carries the conversation's newest message the
  // caller still sees, for the list's preview.
  const unread = !own && message.deletedAt === null && conversation !== null && counted !== null && conversation.seq > counted.readSeq;
  const left = unread ? { unread_count: Math.max(counted.unread - 1, 0) } : {};
  return {
    writes: [hideMessage(request.actorId, message.id, context.conversation?.id ?? null)],
    // Which message went, and the one the list shows now (by id: its payload is built when read).
    ...(context.conversation
      ? {
          own: {
            userId: request.actorId,
            conversationId: context.conversation.id,
            kind: 'hide' as const,
            state: { message_id: message.id, preview_id: context.preview?.message.id ?? null, ...left },
            preview: context.preview,
          },
        }
      : {}),
    totals: unread ? [request.actorId] : [],
  };
}
