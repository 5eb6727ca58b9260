// Which conversation is the direct one with whom. Socket protocol 2 names conversations by id;
// the client keeps a direct conversation's thread, row and address by the other person (as
// `/main/<peer id>` names it: docs/design/conversations.md 4.3), so every payload by conversation
// id is placed through this map, learnt from what names both: list rows, profiles, a send's ack,
// a message from the other person.
import { create } from 'zustand';

interface DirectConversationsState {
  /** The conversation by the other person's id. */
  byPeer: Record<number, number>;
  /** The other person by the conversation's id. */
  byConversation: Record<number, number>;
}

interface DirectConversationsActions {
  /** `conversationId` is the direct conversation with `peerId` (a pair never changes conversation). */
  learn: (conversationId: number, peerId: number) => void;
  /** Sign-out: whom the user talks with is theirs. */
  reset: () => void;
}

export const useDirectConversations = create<DirectConversationsState & DirectConversationsActions>()((set, get) => ({
  byPeer: {},
  byConversation: {},
  learn(conversationId, peerId) {
    if (get().byConversation[conversationId] === peerId) return;
    set((state) => ({ byPeer: { ...state.byPeer, [peerId]: conversationId }, byConversation: { ...state.byConversation, [conversationId]: peerId } }));
  },
  reset: () => set({ byPeer: {}, byConversation: {} }),
}));

/** The other person of a direct conversation, once known. */
export const peerOf = (conversationId: number): number | undefined => useDirectConversations.getState().byConversation[conversationId];

/** The direct conversation with someone, once known. */
export const conversationWith = (peerId: number): number | undefined => useDirectConversations.getState().byPeer[peerId];
