// What each change to a message does (reactions, edits, unsending, deleting for oneself, reading
// a conversation): refused, already so, or the statements and stream rows that carry it out,
// decided from what the change batch read under its locks (change-batch.ts runs them). Each kind
// has its own rule in changes/: react.ts, edit.ts, unsend.ts, hide.ts, read.ts.
import { toMessageRow, toUploadRow } from './message-batch-sql';
import type { MessageWithUpload } from './message-payload';
import type { Row } from '../engine/script-transaction';
import { decideEdit } from './changes/edit';
import { decideHide } from './changes/hide';
import { UNCHANGED, type Account, type ChangeRequest, type Decision, type Found } from './changes/plan';
import { decideReact } from './changes/react';
import { decideUnsend } from './changes/unsend';

export function decideMessageChange(request: Exclude<ChangeRequest, { kind: 'read' }>, context: Found | null, accounts: Map<number, Account>, now: Date): Decision {
  // Someone else's message reads exactly like a missing one, and so does one with a deactivated
  // account (deleted accounts stay: their conversations do) or one the caller deleted for themselves.
  if (!context || !(context.peer.active || context.peer.deleted)) return { refused: 'not_found' };
  if (context.hidden) return request.kind === 'hide' ? UNCHANGED : { refused: 'not_found' };
  const found = { context, accounts, now };
  switch (request.kind) {
    case 'react':
      return decideReact({ ...found, request });
    case 'edit':
      return decideEdit({ ...found, request });
    case 'unsend':
      return decideUnsend({ ...found, request });
    case 'hide':
      return decideHide({ ...found, request });
  }
}

export const toAccount = (row: Row): Account => ({
  accountSeq: Number(row.account_seq),
  active: row.is_active === true,
  deleted: row.deleted === true,
  readReceipts: row.read_receipts === true,
});

export function toFound(row: Row): Found {
  const message = toMessageRow(row);
  const preview = row.preview as { message: Row; upload: Row | null; reply: MessageWithUpload['reply'] } | null;
  const place = preview ? { conversationId: Number(preview.message.conversation_id), seq: Number(preview.message.seq), version: Number(preview.message.version) } : null;
  return {
    message,
    conversation:
      row.conversation_id == null ? null : { id: Number(row.conversation_id), seq: Number(row.conversation_seq), lastSeq: Number(row.conversation_last_seq) },
    hidden: row.hidden === true,
    blocked: row.blocked === true,
    peer: {
      id: Number(row.peer_id),
      active: row.peer_active === true,
      deleted: row.peer_deleted === true,
      readReceipts: row.peer_receipts === true,
    },
    reactionRows: ((row.reaction_rows ?? []) as { emoji: string; user_id: number; at: string }[]).map((reaction) => ({
      emoji: reaction.emoji,
      userId: Number(reaction.user_id),
      at: Date.parse(reaction.at),
    })),
    storageKey: (row.storage_key as string | null) ?? null,
    carried: row.carried === true,
    counted: row.counted_read_seq == null ? null : { readSeq: Number(row.counted_read_seq), hid: row.counted_hid === true, unread: Number(row.counted_unread ?? 0) },
    preview:
      preview && place
        ? { message: toMessageRow(preview.message), upload: preview.upload ? toUploadRow(preview.upload) : null, reply: preview.reply ?? null, place }
        : null,
  };
}
