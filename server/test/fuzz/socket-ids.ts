// Who the socket fuzz is, and which ids the server must refuse it: the fuzzing user's own and
// active ids (a payload aimed at one may be accepted), and the ids every refused case picks from.
import type { Rng } from './prng';

export interface SocketIds {
  selfId: number;
  peerId: number;
  inactiveId: number;
  missingId: number;
  /** An upload of the peer's: attaching it must be refused. */
  foreignUploadId: string;
  /** Every active user id: a payload aimed at one of them (other than self) would be accepted. */
  activeIds: ReadonlySet<number>;
  /** The messages of the fuzzing user's conversations: a change aimed at one may be accepted. */
  conversationMessageIds: ReadonlySet<number>;
  /** A message between two other people: changing it must be refused like a missing one. */
  foreignMessageId: number;
  /** The fuzzing user's conversations: a sync of one is answered. */
  conversationIds: ReadonlySet<number>;
  /** The conversation of two other people: a sync of it is refused like a missing one. */
  foreignConversationId: number;
}

export const uuid = (rng: Rng) => {
  const hex = rng.chars(32, '0123456789abcdef');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
};

export const refusedIds = (ids: SocketIds) => [ids.selfId, ids.inactiveId, ids.missingId, 2_147_483_647];
/** Conversations no sync may read: someone else's, ones that do not exist, and ids no conversation can have. */
export const refusedConversationIds = (ids: SocketIds) => [ids.foreignConversationId, 9_000_000_000, Number.MAX_SAFE_INTEGER, 0, -1, 1.5, String(ids.foreignConversationId)];
/** Message ids no change may reach: someone else's, and ones that do not exist. */
export const refusedMessageIds = (ids: SocketIds) => [ids.foreignMessageId, 9_000_000_000, Number.MAX_SAFE_INTEGER];
