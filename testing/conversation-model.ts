// The conversation model's rules (docs/design/conversations.md), checked over the whole database:
// every message between two people in their direct conversation, each message and change at a seq
// of its own, gapless; each head at its newest and counting its messages; each message at its
// latest change; both people members, each with a list row that agrees; the unread count the
// ordinals give equal to the messages it stands for; receipts naming a message the member read;
// each account's private items gapless. Run after tests and fault runs that write through the
// batches, and after migrations; an empty answer means the model holds. Each fault names the row
// and the rule it breaks.
import { sql } from 'drizzle-orm';
import type { Db } from '../server/db/engine/open-database';
import { unreadFromOrdinalsSql } from '../server/db/unread';
import { rows } from '../server/db/engine/raw-rows';

type Fault = { fault: string; id: string | number | null };

const CHECKS: Record<string, ReturnType<typeof sql>> = {
  // Messages between two people, each in their direct conversation.
  'message outside its direct conversation': sql`
    select m.id from messages m left join conversations_v2 c on c.id = m.conversation_id
    where m.recipient_id is not null and (c.id is null or c.kind <> 'direct' or m.seq is null
      or c.direct_low <> least(m.sender_id, m.recipient_id) or c.direct_high <> greatest(m.sender_id, m.recipient_id))`,
  // Seqs 1…n exactly once per conversation, messages and changes alike; messages in the order stored.
  'seqs not 1…n': sql`
    select conversation_id as id from (
      select conversation_id, seq from messages where conversation_id is not null
      union all select conversation_id, seq from conversation_events) stream
    group by conversation_id having count(distinct seq) <> count(*) or max(seq) <> count(*) or min(seq) <> 1`,
  'seq order differs from id order': sql`
    select id from (select id, seq, lag(seq) over (partition by conversation_id order by id) as before
      from messages where conversation_id is not null) numbered where seq <= before`,
  // Each message's ordinals its place among the conversation's messages and among its sender's
  // there; each head's count the number of its messages (docs/design/conversations.md 3.6).
  'ordinals not 1…n': sql`
    select id from (select id, ordinal, sender_ordinal,
        row_number() over (partition by conversation_id order by seq) as expected,
        row_number() over (partition by conversation_id, sender_id order by seq) as expected_sender
      from messages) numbered
    where ordinal is distinct from expected or sender_ordinal is distinct from expected_sender`,
  'head count not its messages': sql`
    select c.id from conversations_v2 c
    where c.message_count is distinct from (select count(*) from messages where conversation_id = c.id)`,
  // The head at the end of its stream and at its newest message, with its two members.
  'head not at its newest': sql`
    select c.id from conversations_v2 c
    left join lateral (select id, seq, created_at from messages where conversation_id = c.id order by seq desc limit 1) m on true
    left join lateral (select max(seq) as seq from conversation_events where conversation_id = c.id) e on true
    where m.id is null or c.last_seq <> greatest(m.seq, coalesce(e.seq, 0)) or c.last_message_seq is distinct from m.seq
      or c.last_message_id is distinct from m.id or c.last_message_at is distinct from m.created_at or c.changed_xid is null`,
  // Each change once, in its message's conversation; the message at its latest change's seq and state.
  'change outside its message\'s conversation': sql`
    select e.conversation_id as id from conversation_events e left join messages m on m.id = e.message_id
    where e.message_id is not null and (m.id is null or m.conversation_id is distinct from e.conversation_id)`,
  'message version not its latest change': sql`
    select m.id from messages m
    left join lateral (select max(seq) as seq from conversation_events where conversation_id = m.conversation_id and message_id = m.id) e on true
    where m.conversation_id is not null and m.version is distinct from coalesce(e.seq, m.seq)`,
  'message differs from its latest change': sql`
    select m.id from messages m
    cross join lateral (select kind, state from conversation_events where conversation_id = m.conversation_id and message_id = m.id
      order by seq desc limit 1) e
    where case e.kind
      when 'unsend' then m.deleted_at is null
      when 'edit' then m.text is distinct from e.state->>'text' or m.edited_at is distinct from (e.state->>'edited_at')::timestamptz
      when 'reaction' then m.reactions is distinct from e.state->'reactions'
      else true end`,
  'reaction or hidden row outside its message\'s conversation': sql`
    select r.message_id as id from message_reactions r join messages m on m.id = r.message_id where r.conversation_id is distinct from m.conversation_id
    union all
    select h.message_id from message_hidden h join messages m on m.id = h.message_id where h.conversation_id is distinct from m.conversation_id`,
  // The unread count the list and the totals read from the ordinals (unread.ts) is the number of
  // messages it stands for: past the member's position, from someone else, neither unsent nor
  // deleted by the member for themselves.
  'unread from ordinals differs from the messages': sql`
    select cm.conversation_id as id from conversation_members cm
    join conversations_v2 c on c.id = cm.conversation_id
    where cm.left_at is null and ${sql.raw(unreadFromOrdinalsSql('cm', 'c'))} <> (select count(*) from messages m
      where m.conversation_id = cm.conversation_id and m.seq > cm.read_seq and m.seq <= c.last_seq
        and m.sender_id <> cm.user_id and m.deleted_at is null
        and not exists (select 1 from message_hidden h where h.user_id = cm.user_id and h.message_id = m.id))`,
  // A receipt names a message the member read, someone else's, with when; none before their first read.
  'receipt not a message read': sql`
    select cm.conversation_id as id from conversation_members cm
    where cm.seen_seq > cm.read_seq or (cm.seen_seq > 0) <> (cm.seen_at is not null)
      or (cm.seen_seq > 0 and not exists (select 1 from messages m
        where m.conversation_id = cm.conversation_id and m.seq = cm.seen_seq and m.sender_id <> cm.user_id))`,
  // Each account's private items at 1…account_seq, once each.
  'account items not 1…account_seq': sql`
    select u.id from users u
    left join lateral (select count(*) as n, max(seq) as last, min(seq) as first from account_events where user_id = u.id) e on true
    where u.account_seq <> coalesce(e.last, 0) or e.n <> coalesce(e.last, 0) or (e.n > 0 and e.first <> 1)`,
  'two conversations for one pair': sql`
    select min(id) as id from conversations_v2 where kind = 'direct' group by direct_low, direct_high having count(*) > 1`,
  'members not its two people': sql`
    select c.id from conversations_v2 c
    where c.member_count <> 2 or (select array_agg(user_id order by user_id) from conversation_members where conversation_id = c.id)
      is distinct from array[c.direct_low, c.direct_high]`,
  // A member wrote exactly when they sent one; left exactly when their account was deleted.
  'member wrote flag wrong': sql`
    select cm.conversation_id as id from conversation_members cm
    where cm.wrote <> exists (select 1 from messages where conversation_id = cm.conversation_id and sender_id = cm.user_id)`,
  'member left state wrong': sql`
    select cm.conversation_id as id from conversation_members cm join users u on u.id = cm.user_id
    where (u.deleted_at is not null) <> (cm.left_reason is not distinct from 'deleted' and cm.left_at is not null and cm.left_seq is not null)
      or (u.deleted_at is null and (cm.left_at is not null or cm.left_seq is not null))`,
  // No message in a direct conversation after one of its two people left it (a change may come:
  // the other can still unsend their own).
  'message after a member left': sql`
    select cm.conversation_id as id from conversation_members cm join conversations_v2 c on c.id = cm.conversation_id
    where cm.left_seq is not null and (cm.left_seq > c.last_seq
      or exists (select 1 from messages m where m.conversation_id = cm.conversation_id and m.seq > cm.left_seq))`,
  // No foreign key holds them to a head (0018): rows of a conversation that does not exist.
  'member of no conversation': sql`
    select cm.conversation_id as id from conversation_members cm left join conversations_v2 c on c.id = cm.conversation_id where c.id is null`,
  'list row of no conversation': sql`
    select a.conversation_id as id from account_conversations a left join conversations_v2 c on c.id = a.conversation_id where c.id is null`,
  // Each member's list row, and no other.
  'list row differs from its member': sql`
    select cm.conversation_id as id from conversation_members cm join conversations_v2 c on c.id = cm.conversation_id
    left join account_conversations a on a.user_id = cm.user_id and a.conversation_id = cm.conversation_id
    where a.user_id is null or a.kind <> c.kind
      or a.peer_id is distinct from (case when cm.user_id = c.direct_low then c.direct_high else c.direct_low end)
      or a.left_at is distinct from cm.left_at`,
  'list row without a member': sql`
    select a.conversation_id as id from account_conversations a
    left join conversation_members cm on cm.user_id = a.user_id and cm.conversation_id = a.conversation_id
    where cm.user_id is null`,
};

/** Every way the database breaks the conversation model's rules (empty: none). */
export async function conversationModelFaults(db: Db): Promise<Fault[]> {
  const faults: Fault[] = [];
  for (const [fault, query] of Object.entries(CHECKS)) {
    for (const row of await rows<{ id: string | number | null }>(db, query)) faults.push({ fault, id: row.id });
  }
  return faults;
}
