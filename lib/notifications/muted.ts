// Whether the person muted a conversation. The conversation list gains a `muted` field with the
// conversation safety work; until a row has it, no conversation is muted. Read here and only here.
import type { Conversation } from '@/lib/contract';

export function isConversationMuted(row: Conversation | undefined): boolean {
  return (row as (Conversation & { muted?: unknown }) | undefined)?.muted === true;
}
