// Changes to messages (seen, reactions, edits, unsent, deleted for me, read elsewhere) applied to
// what the client holds, as pure functions. Each change carries the message's resulting state and
// its conversation's seq; a held copy takes a change only when the change is newer than the copy's
// version, so applying one twice, or after a newer one, changes nothing (docs/DELIVERY.md,
// "Changes to messages"). Reads only ever fill an empty read_at.
import type { Conversation, MessagePayload, Reaction } from '@/lib/contract';
import type { ThreadMessage } from './thread-messages';

/**
 * A change as the stores take it: protocol 2's, placed in the direct conversation with `peer_id`
 * (lib/stores/held-messages.ts makes them from the socket's payloads). Reads and receipts
 * are positions in the conversation: everything up to `seq` is read.
 */
export type HeldChange =
  /** The user read the peer's messages up to `seq` (on one of their devices); `unread_count` is what is left. */
  | { kind: 'read'; peer_id: number; seq: number; read_at: string; unread_count?: number }
  /** The peer read the user's messages up to `seq`: the read receipt. */
  | { kind: 'seen'; peer_id: number; seq: number; read_at: string }
  | { kind: 'reaction'; peer_id: number; seq: number; message_id: number; reactions: Reaction[] }
  | { kind: 'edit'; peer_id: number; seq: number; message_id: number; text: string; edited_at: string }
  /** Unsent by its sender. */
  | { kind: 'unsend'; peer_id: number; seq: number; message_id: number }
  /**
   * The user deleted it for themselves. `preview`: the conversation's newest message the user has
   * not hidden (null: none), for a list row whose last message this was.
   */
  | { kind: 'hide'; peer_id: number; message_id: number; preview: MessagePayload | null; unread_count?: number };

type Held = Pick<ThreadMessage, 'id' | 'seq' | 'version' | 'sender_id' | 'recipient_id' | 'read_at'>;

/** The same message with the change's state, or the message itself when the change is not for it or not newer. */
function changedMessage<M extends Held & Partial<Pick<MessagePayload, 'text' | 'edited_at' | 'reactions' | 'deleted' | 'attachment'>>>(
  message: M,
  change: HeldChange,
): M {
  switch (change.kind) {
    case 'read':
    case 'seen': {
      // `read`: the peer's messages to the viewer; `seen`: the viewer's to the peer. Up to the position read.
      const concerned = change.kind === 'read' ? message.sender_id === change.peer_id : message.recipient_id === change.peer_id;
      if (!concerned || message.seq === null || message.seq > change.seq || message.read_at !== null) return message;
      return { ...message, read_at: change.read_at };
    }
    case 'hide':
      return message;
    default: {
      if (message.id !== change.message_id || (message.version !== null && message.version >= change.seq)) return message;
      if (change.kind === 'reaction') return { ...message, reactions: change.reactions, version: change.seq };
      if (change.kind === 'edit') return { ...message, text: change.text, edited_at: change.edited_at, version: change.seq };
      return { ...message, deleted: true, text: '', attachment: null, reactions: [], version: change.seq };
    }
  }
}

/** A thread's messages after a change of its conversation: `hide` takes the message out. */
export function applyToThread(messages: readonly ThreadMessage[], change: HeldChange): ThreadMessage[] {
  if (change.kind === 'hide') {
    const kept = messages.filter((message) => message.id !== change.message_id);
    return kept.length === messages.length ? (messages as ThreadMessage[]) : kept;
  }
  let changed = false;
  const next = messages.map((message) => {
    const updated = changedMessage(message, change);
    if (updated !== message) changed = true;
    return updated;
  });
  return changed ? next : (messages as ThreadMessage[]);
}

/**
 * The conversation list after a change. The row's last message takes it like a thread's would;
 * deleting that message for oneself shows the change's preview instead (no preview: the row
 * leaves the list, as the server's list leaves it out). `live`: the change's unread_count is the
 * badge now; a change that came with a sync leaves badges to the list the sync is followed by.
 */
export function applyToList(list: readonly Conversation[], change: HeldChange, live: boolean): Conversation[] {
  const row = list.find((conversation) => conversation.user.id === change.peer_id);
  if (!row) return list as Conversation[];
  let last: MessagePayload | null = row.last_message;
  if (change.kind === 'hide') {
    if (last.id === change.message_id) last = change.preview;
  } else {
    last = changedMessage(last, change);
  }
  const unread = live && 'unread_count' in change && change.unread_count !== undefined ? change.unread_count : row.unread_count;
  if (last === row.last_message && unread === row.unread_count) return list as Conversation[];
  if (last === null) return list.filter((conversation) => conversation !== row);
  return list.map((conversation) => (conversation === row ? { ...row, last_message: last, unread_count: unread } : conversation));
}
