// The send path's block and "who can message me" check, on the batch itself: each message of one
// batch answered on its own, in the batch's single transaction.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../testing/test-database';
import { blockUser, unblockUser } from './blocks';
import { storeMessages } from './delivery/message-batch';
import type { NewMessage } from './delivery/message-payload';
import { insertMessage } from '../../testing/database';
import { setFollow } from './people';
import { users } from './schema';

// PGlite in memory; the same tests against a Postgres of yours with TEST_DATABASE_URL (a scratch one).
const database = testDatabase();

let counter = 0;

const newUser = async (policy: 'everyone' | 'following' | 'nobody' = 'everyone') => {
  const id = await database.newUser('S');
  await database.db.update(users).set({ messagePolicy: policy }).where(eq(users.id, id));
  return id;
};
const msg = (senderId: number, recipientId: number): NewMessage => ({ senderId, recipientId, clientId: `c-${++counter}`, text: `text ${counter}` });
const kinds = (outcomes: Awaited<ReturnType<typeof storeMessages>>) => outcomes.map((o) => ('stored' in o ? 'stored' : o.refused));

describe('storeMessages and safety', () => {
  it('answers each message of one batch on its own: blocked either way and shut-out new conversations refused, the rest stored', async () => {
    const [open, closed, following] = [await newUser(), await newUser('nobody'), await newUser('following')];
    const [talker, stranger, friend, blocked, blocker] = [await newUser(), await newUser(), await newUser(), await newUser(), await newUser()];
    await insertMessage(database.db, msg(closed, talker)); // an existing conversation with `closed`
    await setFollow(database.db, following, friend, true);
    await blockUser(database.db, open, blocked);
    await blockUser(database.db, blocker, open);

    const outcomes = await storeMessages(database.db, [
      msg(talker, open),
      msg(blocked, open), // open blocked them
      msg(open, blocker), // blocker blocked open
      msg(stranger, closed), // new conversation, policy nobody
      msg(talker, closed), // existing conversation continues
      msg(stranger, following), // not followed by the recipient
      msg(friend, following), // followed by the recipient
      msg(stranger, closed), // the same pair again in the batch: the same answer
    ]);
    expect(kinds(outcomes)).toEqual(['stored', 'not_allowed', 'not_allowed', 'not_allowed', 'stored', 'not_allowed', 'stored', 'not_allowed']);
  });

  it('a block committed before the batch applies to it; an unblock lifts it', async () => {
    const [a, b] = [await newUser(), await newUser()];
    expect(kinds(await storeMessages(database.db, [msg(b, a)]))).toEqual(['stored']);
    await blockUser(database.db, a, b);
    expect(kinds(await storeMessages(database.db, [msg(b, a), msg(a, b)]))).toEqual(['not_allowed', 'not_allowed']);
    await unblockUser(database.db, a, b);
    expect(kinds(await storeMessages(database.db, [msg(b, a), msg(a, b)]))).toEqual(['stored', 'stored']);
  });
});
