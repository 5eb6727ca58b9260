// A new text for one's own message, within the edit window, while the two may still talk. Both
// sides hear the text and when it was edited.
import { editText } from '../change-batch-sql';
import { UNCHANGED, mayNotTalk, stateChange, withinWindow, type Decision, type MessageCase } from './plan';

export function decideEdit({ request, context, now }: MessageCase<'edit'>): Decision {
  const { message } = context;
  const own = message.senderId === request.actorId;
  if (!own) return { refused: 'not_yours' };
  if (message.deletedAt) return { refused: 'deleted' };
  if (!withinWindow(message, now, request.windowMs)) return { refused: 'too_late' };
  if (mayNotTalk(context)) return { refused: 'not_allowed' };
  if (request.text.trim() === '' && message.attachmentId === null) return { refused: 'empty' };
  if (request.text === message.text) return UNCHANGED;
  return {
    writes: [editText(message.id, request.text, now)],
    ...stateChange(context, request.actorId, { kind: 'edit', text: request.text, edited_at: now.toISOString() }),
    totals: [],
  };
}
