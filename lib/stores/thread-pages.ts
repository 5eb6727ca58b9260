// A thread's pages as the thread store takes them (thread-store.ts): the person's direct
// conversation found (the map, the list on its way, or their profile), the page asked for by
// conversation and placed in the shape the screens show, and where it stands in the conversation
// (the seq it was read at, the read positions), which the thread keeps where it is newer.
import { getProfile } from '@/lib/api/users';
import type { ConversationThreadPage, MessagePayload } from '@/lib/contract';
import { useConversationsStore } from './conversations-store';
import { conversationWith, useDirectConversations } from './direct-conversations';
import { heldMessage, heldSeen } from './held-messages';
import { useSessionStore } from './session-store';
import type { Thread } from './thread-model';

/** Where a page of a thread stands in its conversation (Thread's fields of the same names). */
type HeldPosition = Pick<Thread, 'conversationId' | 'streamSeq' | 'readSeq' | 'seen'>;

interface HeldPage {
  results: MessagePayload[];
  next_cursor: string | null;
  newer_cursor: string | null;
  held: HeldPosition;
}

/**
 * The direct conversation with `peerId`: known, or named by their profile (null before their
 * first message). Learnt only while `current()` (a sign-out meanwhile keeps none of it).
 */
async function conversationOf(peerId: number, current: () => boolean): Promise<number | null> {
  // The list's first page on its way names most conversations, a deleted person's too (who has
  // no profile to ask): it is waited for before asking.
  if (conversationWith(peerId) === undefined && useConversationsStore.getState().status === 'loading') {
    await useConversationsStore.getState().loadConversations();
  }
  const known = conversationWith(peerId);
  if (known !== undefined) return known;
  const { conversation_id: id } = await getProfile(peerId);
  if (id !== null && current()) useDirectConversations.getState().learn(id, peerId);
  return id;
}

/**
 * A page of the conversation with `peerId` as the thread holds it (no conversation yet: an empty
 * one), with where the page stands: the conversation, the seq it was read at, the read positions.
 */
export async function readPage(peerId: number, ask: (conversationId: number) => Promise<ConversationThreadPage>, current: () => boolean): Promise<HeldPage> {
  const conversationId = await conversationOf(peerId, current);
  if (conversationId === null) return { results: [], next_cursor: null, newer_cursor: null, held: { conversationId, streamSeq: null, readSeq: 0, seen: null } };
  const page = await ask(conversationId);
  const receipt = page.seen.find((seen) => seen.user_id === peerId) ?? null;
  const me = useSessionStore.getState().user?.id ?? 0;
  const results = page.results.map((message) => heldMessage(message, peerId, me, { readSeq: page.read_seq, seen: receipt }));
  const seen = receipt === null ? null : heldSeen({ ...receipt, conversation_id: conversationId });
  return { results, next_cursor: page.next_cursor, newer_cursor: page.newer_cursor, held: { conversationId, streamSeq: page.last_seq, readSeq: page.read_seq, seen } };
}

/** What a page says of the conversation, kept where it is newer than what the thread knew; `newest`: the page the catch-up goes on from. */
export function positions(current: Thread, held: HeldPosition, newest: boolean): Partial<Thread> {
  // No conversation when the page was asked for: the thread keeps what it learnt meanwhile (bindConversation).
  if (held.conversationId === null) return {};
  const seen = held.seen !== null && (current.seen === null || held.seen.seq > current.seen.seq) ? held.seen : current.seen;
  return {
    conversationId: held.conversationId,
    readSeq: Math.max(current.readSeq, held.readSeq),
    seen,
    ...(newest ? { streamSeq: held.streamSeq } : {}),
  };
}
