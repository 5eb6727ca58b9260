// Many messages in a few statements, for seeding benchmarks and the tests that need more rows than
// the send path writes in reasonable time (a transaction per message on PGlite). The rows come out
// as the message batch (server/db/delivery/message-batch.ts) leaves them: a direct conversation per
// pair (created when missing), its messages numbered after its head in the order given (seqs and
// ordinals), version = seq, and the heads, members and list rows of the conversations touched
// moved past the batch (from the batch's rows alone: a seed written in batches costs each batch,
// not everything before it). `read_at` and `seen_at` say where the recipients' read positions and
// receipts go; the rows themselves keep neither (the pair model's columns, no longer written).
// testing/conversation-model.ts finds nothing to say about the result (testing/bulk-messages.test.ts).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../server/db/engine/open-database';
import { rows as all } from '../server/db/engine/raw-rows';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What `rows` may give besides `ord`, `sender_id` and `recipient_id`. */
const OPTIONAL = ['client_id', 'text', 'attachment_id', 'created_at', 'read_at', 'seen_at'] as const;
type Optional = (typeof OPTIONAL)[number];
const DEFAULTS: Record<Optional, string> = {
  client_id: 'gen_random_uuid()::text',
  text: "''",
  attachment_id: 'null::text',
  created_at: 'now()',
  read_at: 'null::timestamptz',
  seen_at: 'null::timestamptz',
};

/**
 * Inserts `rows` inside `tx`: a select of `ord` (the order within the batch, unique), `sender_id`,
 * `recipient_id` (two different accounts) and any of OPTIONAL by those names (`columns` lists
 * which; the others take the send path's values). Returns the number of messages written.
 */
export async function insertMessagesInBulk(tx: Tx, rows: SQL, columns: readonly Optional[] = []): Promise<number> {
  for (const column of columns) if (!OPTIONAL.includes(column)) throw new Error(`unknown column ${column}`);
  const given = OPTIONAL.map((column) => `${columns.includes(column) ? `r.${column}` : DEFAULTS[column]} as ${column}`).join(', ');
  await tx.execute(sql`
    create temp table bulk_messages on commit drop as
    select r.ord, r.sender_id, r.recipient_id, ${sql.raw(given)} from (${rows}) r`);
  const [bad] = await all<{ ord: number }>(tx, sql`select ord from bulk_messages where sender_id = recipient_id or sender_id is null or recipient_id is null limit 1`);
  if (bad) throw new Error(`row ${bad.ord}: a message needs two different people`);
  // Every writer locks the people first, in id order (docs/design/conversations.md 3.1).
  await tx.execute(sql`
    select id from users where id in (select sender_id from bulk_messages union select recipient_id from bulk_messages)
    order by id for update`);
  await tx.execute(sql`
    insert into conversations_v2 (kind, direct_low, direct_high, created_at, member_count, changed_xid)
    select 'direct', least(sender_id, recipient_id), greatest(sender_id, recipient_id), min(created_at), 2, pg_current_xact_id()
    from bulk_messages group by 1, 2, 3
    on conflict (direct_low, direct_high) where kind = 'direct' do nothing`);
  // The conversations touched, each with its head before the batch, and each sender's own count
  // there: the batch's messages follow them.
  await tx.execute(sql`
    create temp table bulk_conversations on commit drop as
    select distinct c.id, c.last_seq as before_seq, coalesce(c.message_count, 0) as before_count from bulk_messages b
    join conversations_v2 c on c.kind = 'direct' and c.direct_low = least(b.sender_id, b.recipient_id) and c.direct_high = greatest(b.sender_id, b.recipient_id)`);
  await tx.execute(sql`
    create temp table bulk_senders on commit drop as
    select s.conversation_id, s.sender_id, coalesce((select sender_ordinal from messages
      where conversation_id = s.conversation_id and sender_id = s.sender_id order by seq desc limit 1), 0) as before_count
    from (select distinct c.id as conversation_id, b.sender_id from bulk_messages b
      join conversations_v2 c on c.kind = 'direct' and c.direct_low = least(b.sender_id, b.recipient_id) and c.direct_high = greatest(b.sender_id, b.recipient_id)) s`);
  const [inserted] = await all<{ count: number }>(
    tx,
    sql`
      with placed as (
        insert into messages (sender_id, recipient_id, client_id, text, attachment_id, created_at,
          conversation_id, seq, version, ordinal, sender_ordinal)
        select b.sender_id, b.recipient_id, b.client_id, b.text, b.attachment_id, b.created_at, c.id,
          c.last_seq + row_number() over (partition by c.id order by b.ord), c.last_seq + row_number() over (partition by c.id order by b.ord),
          bc.before_count + row_number() over (partition by c.id order by b.ord),
          bs.before_count + row_number() over (partition by c.id, b.sender_id order by b.ord)
        from bulk_messages b
        join conversations_v2 c on c.kind = 'direct' and c.direct_low = least(b.sender_id, b.recipient_id) and c.direct_high = greatest(b.sender_id, b.recipient_id)
        join bulk_conversations bc on bc.id = c.id
        join bulk_senders bs on bs.conversation_id = c.id and bs.sender_id = b.sender_id
        order by b.ord
        returning 1)
      select count(*)::int as count from placed`,
  );
  await tx.execute(sql`
    update conversations_v2 set last_seq = head.seq, last_message_seq = head.seq, last_message_id = head.id,
      last_message_at = head.created_at, message_count = head.ordinal, changed_xid = pg_current_xact_id()
    from bulk_conversations bc
    cross join lateral (select seq, id, created_at, ordinal from messages where conversation_id = bc.id order by seq desc limit 1) head
    where bc.id = conversations_v2.id`);
  // Members from what they were and the batch alone (the batch follows everything before it): the
  // read position stays where an unread message already waits, else goes before the batch's first
  // unread arrival, else to the head.
  await tx.execute(sql`
    with batch as (
      select m.conversation_id, m.seq, m.recipient_id, m.sender_id, b.read_at, b.seen_at
      from bulk_conversations bc join messages m on m.conversation_id = bc.id and m.seq > bc.before_seq
      join bulk_messages b on b.sender_id = m.sender_id and b.client_id = m.client_id
    ), received as (
      select conversation_id, recipient_id as user_id, min(seq) filter (where read_at is null) as first_unread,
        max(seq) filter (where seen_at is not null) as seen_seq, max(seen_at) as seen_at
      from batch group by 1, 2
    ), sent as (
      select distinct conversation_id, sender_id as user_id from batch
    )
    insert into conversation_members (conversation_id, user_id, read_seq, seen_seq, seen_at, wrote, joined_at)
    select c.id, side.user_id,
      case when exists (select 1 from messages w where w.conversation_id = c.id and w.seq > cm.read_seq and w.seq <= bc.before_seq
          and w.sender_id <> side.user_id and w.deleted_at is null)
        then cm.read_seq else coalesce(received.first_unread - 1, c.last_seq) end,
      coalesce(received.seen_seq, cm.seen_seq, 0),
      case when received.seen_seq is not null then received.seen_at else cm.seen_at end,
      coalesce(cm.wrote, false) or sent.user_id is not null,
      coalesce(cm.joined_at, c.created_at)
    from bulk_conversations bc
    join conversations_v2 c on c.id = bc.id
    cross join lateral (values (c.direct_low, c.direct_high), (c.direct_high, c.direct_low)) as side(user_id, peer_id)
    left join conversation_members cm on cm.conversation_id = c.id and cm.user_id = side.user_id
    left join received on received.conversation_id = c.id and received.user_id = side.user_id
    left join sent on sent.conversation_id = c.id and sent.user_id = side.user_id
    on conflict (conversation_id, user_id) do update set
      read_seq = excluded.read_seq, seen_seq = excluded.seen_seq, seen_at = excluded.seen_at, wrote = excluded.wrote`);
  await tx.execute(sql`
    insert into account_conversations (user_id, conversation_id, kind, peer_id)
    select side.user_id, c.id, 'direct', side.peer_id
    from conversations_v2 c
    cross join lateral (values (c.direct_low, c.direct_high), (c.direct_high, c.direct_low)) as side(user_id, peer_id)
    where c.id in (select id from bulk_conversations)
    on conflict (user_id, conversation_id) do nothing`);
  await tx.execute(sql`drop table bulk_messages, bulk_conversations, bulk_senders`);
  return inserted?.count ?? 0;
}
