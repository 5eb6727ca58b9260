// Unread counts in the conversation model (docs/design/conversations.md 3.6), as SQL text for the
// queries and the batches' prepared statements that read them: one member's, and an account's total.

/** A message ordinal (its place among the conversation's, or among its sender's there) at the newest seq at or before `bound`: 0 before any. */
const ordinalAt = (member: string, bound: string, column: 'ordinal' | 'sender_ordinal') => `coalesce((select o.${column} from messages o
    where o.conversation_id = ${member}.conversation_id${column === 'sender_ordinal' ? ` and o.sender_id = ${member}.user_id` : ''}
      and o.seq <= ${bound} order by o.seq desc limit 1), 0)`;

/**
 * A member's unread count (docs/design/conversations.md 3.6): the messages after their read
 * position, up to the end of what they may read, that are not theirs, not unsent and not deleted
 * by them for themselves; from the ordinals on the message rows, in a few index probes however
 * many are unread: the conversation's messages between the read position and the end of what the
 * member may read (the head's count, or the ordinal of the last message at or before where they
 * left, and the one at or before the read position, by backward probes of
 * messages_conversation_seq_idx), less their own there (their `sender_ordinal`s likewise, by
 * messages_conversation_sender_idx), less the unsent ones of others there (the partial
 * messages_unsent_idx: few), less the others' they deleted for themselves there (their hidden rows
 * in the conversation, by message_hidden_conversation_idx: few, each message by its primary key:
 * naming its conversation too let the planner scan the whole unread range once per hidden row).
 * Nothing is probed for a conversation whose newest message is not past the read position.
 * `member` and `head` are SQL aliases of conversation_members and conversations_v2. The list, the
 * totals, the export and the change batch read it.
 */
export const unreadFromOrdinalsSql = (member: string, head: string) => {
  const end = `coalesce(${member}.left_seq, ${head}.last_seq)`;
  const start = `${member}.read_seq`;
  // The ordinal at the head's newest seq is the head's count: no probe unless the member left.
  const atEnd = `(case when ${member}.left_seq is null then ${head}.message_count else ${ordinalAt(member, end, 'ordinal')} end)`;
  return `(case when ${head}.last_message_seq > ${start} then ${unreadBetweenSql(member, start, end, atEnd)} else 0 end)`;
};

/**
 * The member's unread messages with seqs in (start, end]: the others' there, not unsent, not
 * deleted by the member for themselves (unreadFromOrdinalsSql, above, counts them from the read
 * position to the end; a read counts those it reads). `start` and `end` are SQL expressions;
 * `endOrdinal` the conversation's ordinal at `end` when the caller has it cheaper.
 */
export const unreadBetweenSql = (member: string, start: string, end: string, endOrdinal = ordinalAt(member, end, 'ordinal')) => `(
    ${endOrdinal} - ${ordinalAt(member, start, 'ordinal')} - ${ordinalAt(member, end, 'sender_ordinal')} + ${ordinalAt(member, start, 'sender_ordinal')}
    - (select count(*) from messages ux where ux.conversation_id = ${member}.conversation_id and ux.deleted_at is not null
        and ux.seq > ${start} and ux.seq <= ${end} and ux.sender_id <> ${member}.user_id)
    - (select count(*) from message_hidden uh join messages hx on hx.id = uh.message_id
        where uh.user_id = ${member}.user_id and uh.conversation_id = ${member}.conversation_id
          and hx.seq > ${start} and hx.seq <= ${end} and hx.sender_id <> ${member}.user_id and hx.deleted_at is null)
  )::int`;

/**
 * The user's unread total: the sum of their conversations' unread counts, each from the ordinals
 * (unreadFromOrdinalsSql, above), over exactly the conversations the list shows
 * (conversation-summaries.ts): a direct one whose other person is deactivated (not deleted) or
 * blocked by the user is left out. So the total always equals the sum of the visible badges. Each
 * of the account's conversations costs a probe of its member row and its head; only those whose
 * newest message is past the member's read position are counted. A scalar subquery, so `init` can
 * read it in the same query as the account's state; `userId` is SQL text (a column, or sqlInt's
 * literal), so the change batch's prepared statement uses the same text.
 */
export const unreadTotalSql = (userId: string) => `(
  select coalesce(sum(${unreadFromOrdinalsSql('tm', 'th')}), 0)::int
  from account_conversations ta
  join conversation_members tm on tm.conversation_id = ta.conversation_id and tm.user_id = ta.user_id
  join conversations_v2 th on th.id = ta.conversation_id
  where ta.user_id = ${userId} and th.last_message_seq > tm.read_seq
    and (ta.peer_id is null or (
      exists (select 1 from users peer where peer.id = ta.peer_id and (peer.is_active or peer.deleted_at is not null))
      and not exists (select 1 from blocks b where b.blocker_id = ta.user_id and b.blocked_id = ta.peer_id))))`;
