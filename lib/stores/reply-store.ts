// Which message the composer answers, per conversation: the actions menu's "Reply" sets it, the
// composer's cancel button, Escape or a send clears it.
import { create } from 'zustand';
import type { MessagePayload, ReplySummary } from '@/lib/contract';
import { REPLY_SNIPPET_LENGTH } from '@/lib/contract';

export interface ReplyState {
  /** The quoted message by conversation (the other person's id). */
  replying: Record<number, ReplySummary>;
  startReply: (peerId: number, to: ReplySummary) => void;
  cancelReply: (peerId: number) => void;
}

export const useReplyStore = create<ReplyState>()((set) => ({
  replying: {},
  startReply: (peerId, to) => set((state) => ({ replying: { ...state.replying, [peerId]: to } })),
  cancelReply: (peerId) =>
    set((state) => {
      if (!(peerId in state.replying)) return state;
      const replying = { ...state.replying };
      delete replying[peerId];
      return { replying };
    }),
}));

/** What a reply carries of a held message: the same summary the server would send. */
export function summaryOf(message: Pick<MessagePayload, 'id' | 'sender_id' | 'text' | 'deleted' | 'attachment'>): ReplySummary {
  return {
    id: message.id,
    sender_id: message.sender_id,
    text: Array.from(message.text).slice(0, REPLY_SNIPPET_LENGTH).join(''),
    deleted: message.deleted,
    attachment: message.attachment ? { name: message.attachment.name, mime_type: message.attachment.mime_type } : null,
  };
}
