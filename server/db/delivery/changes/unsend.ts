// Unsending one's own message, within the unsend window: both sides keep a "Message deleted" row.
import { removeUpload, unsendMessage } from '../change-batch-sql';
import { UNCHANGED, stateChange, withinWindow, type Decision, type MessageCase } from './plan';

export function decideUnsend({ request, context, now }: MessageCase<'unsend'>): Decision {
  const { message } = context;
  const own = message.senderId === request.actorId;
  // Its text, attachment and reactions go and the row stays as "Message deleted". Still unread,
  // it stops counting (counts leave unsent messages out: unread.ts), so the recipient's total is
  // answered. Its upload goes too when no other message carries it.
  if (!own) return { refused: 'not_yours' };
  if (message.deletedAt) return UNCHANGED;
  if (!withinWindow(message, now, request.windowMs)) return { refused: 'too_late' };
  // Unread: past the recipient's read position, and not deleted by them for themselves.
  const { conversation, counted } = context;
  const unread = conversation !== null && counted !== null && conversation.seq > counted.readSeq && !counted.hid;
  const removing = message.attachmentId !== null && !context.carried;
  return {
    writes: [unsendMessage(message.id, now), ...(removing ? [removeUpload(message.attachmentId!)] : [])],
    ...stateChange(context, request.actorId, { kind: 'unsend' }),
    totals: unread ? [context.peer.id] : [],
    ...(removing && context.storageKey ? { removedStorageKey: context.storageKey } : {}),
  };
}
