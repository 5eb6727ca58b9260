// A reaction added or taken back: any message of the conversation, not a deleted one, while the
// two may still talk; a few per person per message (MAX_REACTIONS_PER_PERSON). Both sides hear
// the message's reactions as they now stand.
import { MAX_REACTIONS_PER_PERSON, type Reaction } from '../../../../lib/contract';
import { addReaction, removeReaction, setReactions } from '../change-batch-sql';
import { UNCHANGED, mayNotTalk, stateChange, type Decision, type MessageCase, type ReactionRow } from './plan';

export function decideReact({ request, context, now }: MessageCase<'react'>): Decision {
  const { message } = context;
  if (message.deletedAt) return { refused: 'deleted' };
  if (mayNotTalk(context)) return { refused: 'not_allowed' };
  const { actorId, emoji, add } = request;
  const mine = context.reactionRows.filter((row) => row.userId === actorId);
  const has = mine.some((row) => row.emoji === emoji);
  if (add ? has : !has) return UNCHANGED;
  if (add && mine.length >= MAX_REACTIONS_PER_PERSON) return { refused: 'too_many' };
  const rows = add
    ? [...context.reactionRows, { emoji, userId: actorId, at: now.getTime() }]
    : context.reactionRows.filter((row) => !(row.userId === actorId && row.emoji === emoji));
  const reactions = summariseReactions(rows);
  return {
    writes: [add ? addReaction(message.id, context.conversation?.id ?? null, actorId, emoji, now) : removeReaction(message.id, actorId, emoji), setReactions(message.id, reactions)],
    ...stateChange(context, actorId, { kind: 'reaction', reactions }),
    totals: [],
  };
}

/** A message's reactions, from its rows in any order: by emoji in the order first used, people in the order they reacted. */
export function summariseReactions(rows: readonly ReactionRow[]): Reaction[] {
  const sorted = [...rows].sort((a, b) => a.at - b.at || a.userId - b.userId || (a.emoji < b.emoji ? -1 : a.emoji > b.emoji ? 1 : 0));
  const byEmoji = new Map<string, number[]>();
  for (const { emoji, userId } of sorted) byEmoji.set(emoji, [...(byEmoji.get(emoji) ?? []), userId]);
  return [...byEmoji].map(([emoji, userIds]) => ({ emoji, user_ids: userIds }));
}
