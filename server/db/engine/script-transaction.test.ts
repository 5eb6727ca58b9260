// Script transactions run the message batch's statements prepared once per connection.
import { expect, it } from 'vitest';
import { testDatabase } from '../../../testing/test-database';
import '../delivery/message-batch';
import { scriptTransaction } from './script-transaction';

// PGlite in memory; the same tests against a Postgres of yours with TEST_DATABASE_URL (a scratch one).
const database = testDatabase();

const preparedHere = async () =>
  scriptTransaction(database.db, async (tx) => {
    const [rows = []] = await tx.commit(["select name, parameter_types::text as types from pg_prepared_statements where name like 'batch\\_%' order by name"]);
    return rows;
  });

it('prepares the batch statements on a connection before its first transaction, once', async () => {
  const expected = [
    { name: 'batch_find_direct_conversations', types: '{json}' },
    { name: 'batch_find_refused_pairs', types: '{json}' },
    { name: 'batch_find_reply_targets', types: '{json}' },
    { name: 'batch_find_stored', types: '{json}' },
    { name: 'batch_find_uploads', types: '{json}' },
    { name: 'batch_lock_users', types: '{integer[]}' },
    { name: 'batch_write', types: '{json}' },
    { name: 'batch_write_attaching', types: '{json}' },
  ];
  expect(await preparedHere()).toEqual(expected);
  // A second transaction on the same connection does not prepare them again (that would fail).
  expect(await preparedHere()).toEqual(expected);
});
