import type pg from 'pg';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertMessagesInBulk } from '../../../testing/bulk-messages';
import { testDatabase } from '../../../testing/test-database';
import { applyChanges } from './change-batch';
import { storeMessages } from './message-batch';

// The message and change batches' statements are prepared once per connection, so Postgres plans
// them once for any batch, guessing 100 rows for the JSON they take. Written as joins, such a
// plan hashes a scan of a whole table to find a handful of rows: 15 ms a batch at 20,000
// conversations, and growing with the data. Here, on tables large enough for the planner to
// tell a scan from a probe, every generic plan must reach the big tables by their keys only.
const database = testDatabase();
const BIG_TABLES = ['messages', 'users', 'conversations_v2', 'conversation_members', 'account_conversations'];
const USERS = 2_000;
const MESSAGES = 40_000;

type Client = pg.PoolClient;

async function withConnection<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}

let a = 0;
let b = 0;
let messageId = 0;
let conversationId = 0;

beforeAll(async () => {
  [a, b] = [await database.newUser('Plan A'), await database.newUser('Plan B')];
  const [sent] = await storeMessages(database.db, [{ senderId: a, recipientId: b, clientId: 'plan-1', text: 'hello' }]);
  if (!sent || !('stored' in sent)) throw new Error('not stored');
  messageId = sent.stored.message.id;
  conversationId = sent.stored.message.conversation_id;
  // A change too: both batches' statements are now prepared on the connection.
  await applyChanges(database.db, [{ kind: 'read', actorId: b, conversationId, upTo: null }]);
  const first = await withConnection(async (client) => {
    const first = Number((await client.query(`select coalesce(max(id), 0) as id from users`)).rows[0].id);
    // The bench's shape: a few thousand accounts, many more messages and conversations.
    await client.query(`insert into users (firebase_uid, username, social_type)
      select 'plan-' || g || '-' || ${Date.now()}, 'Plan ' || g, 'google' from generate_series(1, ${USERS}) g`);
    return first;
  });
  // Messages as the send path leaves them.
  await database.db.transaction((tx) =>
    insertMessagesInBulk(
      tx,
      sql.raw(`select g as ord, ${first} + 1 + g % ${USERS} as sender_id, ${first} + 1 + (g * 7 + 1) % ${USERS} as recipient_id,
        'plan-' || g as client_id, 'text ' || g as text from generate_series(1, ${MESSAGES}) g where g % ${USERS} <> (g * 7 + 1) % ${USERS}`),
      ['client_id', 'text'],
    ),
  );
  await withConnection((client) => client.query('analyze users, messages, conversations_v2, conversation_members, account_conversations'));
}, 120_000);

/** The generic plan of `execute …`, as Postgres would use it from the sixth run on. */
async function genericPlan(statement: string): Promise<string> {
  return withConnection(async (client) => {
    await client.query('set plan_cache_mode = force_generic_plan');
    try {
      const { rows } = await client.query(`explain ${statement}`);
      return rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
    } finally {
      await client.query('reset plan_cache_mode');
    }
  });
}

const scans = (plan: string) => BIG_TABLES.filter((table) => new RegExp(`Seq Scan on ${table}\\b`).test(plan));

describe('the batches reach messages, conversations and accounts by their keys', () => {
  it.each([
    ['batch_lock_users', () => `execute batch_lock_users('{${a},${b}}')`],
    ['batch_find_stored', () => `execute batch_find_stored('[{"s":${a},"c":"plan-1"}]')`],
    ['batch_find_refused_pairs', () => `execute batch_find_refused_pairs('[{"s":${a},"r":${b}}]')`],
    ['batch_find_direct_conversations', () => `execute batch_find_direct_conversations('[{"l":${Math.min(a, b)},"h":${Math.max(a, b)}}]')`],
    ['batch_find_reply_targets', () => `execute batch_find_reply_targets('[{"s":${a},"m":${messageId}}]')`],
    ['batch_write', () => `execute batch_write('[{"i":0,"sender_id":${a},"recipient_id":${b},"client_id":"plan-x","text":"x","attachment_id":null,"reply_to_id":null,"conversation_id":1,"seq":1000,"ordinal":1000,"sender_ordinal":500}]')`],
    ['change_lock_users', () => `execute change_lock_users('[{"a":${a},"m":${messageId}}]', '[{"u":${b},"c":${conversationId}}]')`],
    ['change_find_messages', () => `execute change_find_messages('[{"a":${a},"m":${messageId},"p":true}]')`],
    ['change_find_unread', () => `execute change_find_unread('[{"u":${b},"c":${conversationId}}]')`],
    [
      'change_append',
      () =>
        `execute change_append('{${a}}', '{7}', '[{"u":${a},"s":7,"c":1,"k":"read","st":{}}]', ` +
        `'[{"c":1,"s":1000,"m":${messageId},"a":${a},"k":"edit","st":{}}]', '{1}', '{1000}', '[{"m":${messageId},"v":1000}]')`,
    ],
    ['change_move_read', () => `execute change_move_read(1, ${b}, 1000, 1000, true, now())`],
    ['change_unread_totals', () => `execute change_unread_totals('{${a},${b}}')`],
  ])('%s', async (_name, statement) => {
    // EXPLAIN of a write plans it without running it.
    expect(scans(await genericPlan(statement()))).toEqual([]);
  });
});
