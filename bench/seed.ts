// Seeds a data directory (or DATABASE_URL) before the server starts: PGlite admits one process at
// a time, and this keeps its memory out of the load generator. Writes the users as JSON to --out.
//   node --import tsx bench/seed.ts --data-dir D --count N --prefix P --out users.json [--push-endpoint URL]
// With --thread T --conversations C (front-end benchmark): the first user gets C conversations,
// the one with the second user T messages long. The long thread's first T-1 messages are written
// in a few statements (testing/bulk-messages.ts: rows as insertMessage leaves them, read), since one transaction per message would take minutes on PGlite; the
// others, and the thread's last message (unread), go through the server's own insertMessage.
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { insertMessagesInBulk } from '../testing/bulk-messages';
import { insertMessage } from '../testing/database';
import { openDatabase } from '../server/db/engine/open-database';
import { seedUsers } from '../testing/seed';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    count: { type: 'string' },
    prefix: { type: 'string', default: 'bench' },
    out: { type: 'string' },
    thread: { type: 'string', default: '0' },
    conversations: { type: 'string', default: '0' },
    missed: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    'push-endpoint': { type: 'string' },
  },
});

// --missed X --from A --to B: X messages from A to B as if sent while B was away (run with the
// server stopped): rows as insertMessage leaves them (testing/bulk-messages.ts), unread for B.
if (values.missed) {
  const missed = Number(values.missed);
  const from = Number(values.from);
  const to = Number(values.to);
  const database = await openDatabase({ dataDir: values['data-dir'], databaseUrl: process.env.DATABASE_URL || undefined });
  try {
    await database.db.transaction((tx) =>
      insertMessagesInBulk(
        tx,
        sql`select i as ord, ${from}::int as sender_id, ${to}::int as recipient_id,
              'missed message ' || i || ' of ' || ${missed}::int as text, clock_timestamp() as created_at
            from generate_series(1, ${missed}::int) as i`,
        ['text', 'created_at'],
      ),
    );
  } finally {
    await database.close();
  }
  if (values.out) await writeFile(values.out, JSON.stringify({ missed }));
  process.exit(0);
}
const count = Number(values.count);
const thread = Number(values.thread);
const conversations = Number(values.conversations);
if (!values['data-dir'] || !values.out || !Number.isInteger(count) || count < 1) {
  console.error('usage: seed.ts --data-dir <dir> --count <n> --out <file> [--prefix p] [--thread t --conversations c]');
  process.exit(2);
}
if (conversations >= count) throw new Error('--conversations needs more users than conversations');

const database = await openDatabase({ dataDir: values['data-dir'], databaseUrl: process.env.DATABASE_URL || undefined });
try {
  const started = performance.now();
  const users = await seedUsers(database.db, { count, prefix: values.prefix });
  // --push-endpoint URL: a browser subscribed for every user, each with keys of its own (the
  // server encrypts every push to them), on the session seedUsers made.
  // The data directory is fresh: every session is one of these users'.
  if (values['push-endpoint']) {
    const keys = pushKeys();
    await database.db.execute(sql`
      insert into push_subscriptions (endpoint, user_id, session_id, p256dh, auth)
      select ${values['push-endpoint']} || '/' || user_id, user_id, id, ${keys.p256dh}, ${keys.auth} from sessions`);
  }
  const [me, peer] = users;
  let messages = 0;
  if (me && peer && conversations > 0) {
    // The long thread first (oldest), then one message from each other peer, so the list shows
    // them above it as a busy person's list would; the long thread's last message is newest.
    const bulk = thread - 1;
    if (bulk > 0) {
      await database.db.transaction((tx) =>
        insertMessagesInBulk(
          tx,
          sql`select i as ord, case when i % 2 = 1 then ${me.id}::int else ${peer.id}::int end as sender_id,
                case when i % 2 = 1 then ${peer.id}::int else ${me.id}::int end as recipient_id,
                'thread message ' || i || ' of ' || ${thread}::int as text,
                now() - (${bulk}::int - i + 60) * interval '1 second' as created_at, now() - interval '30 seconds' as read_at
              from generate_series(1, ${bulk}::int) as i`,
          ['text', 'created_at', 'read_at'],
        ),
      );
      messages += bulk;
    }
    for (const other of users.slice(2, conversations + 1)) {
      await insertMessage(database.db, { senderId: other.id, recipientId: me.id, clientId: randomUUID(), text: `hello from ${other.username}` });
      messages++;
    }
    await insertMessage(database.db, { senderId: peer.id, recipientId: me.id, clientId: randomUUID(), text: `thread message ${thread} of ${thread}` });
    messages++;
  }
  await writeFile(values.out, JSON.stringify({ users, messages, seedMs: Math.round(performance.now() - started) }));
} finally {
  await database.close();
}

/** A browser's push keys: an uncompressed P-256 public key and a 16-byte auth secret (base64url). */
function pushKeys(): { p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}
