// The typing check's short memory: one query per pair and lifetime, a block seen once it expires.
import { describe, expect, it, vi } from 'vitest';
import { directConversationId, insertMessage } from '../../testing/database';
import { testDatabase } from '../../testing/test-database';
import { blockUser } from '../db/blocks';
import { updateSettings } from '../db/users';
import { createSignalCheck } from './can-signal';

const database = testDatabase();
const newUser = () => database.newUser();

describe('createSignalCheck', () => {
  it('answers a pair from memory until the answer expires, then asks the database again', async () => {
    const [ann, ben] = [await newUser(), await newUser()];
    await insertMessage(database.db, { senderId: ben, recipientId: ann, clientId: 'remembered', text: 'hi' });
    const conversation = { conversationId: await directConversationId(database.db, ann, ben) };
    let now = 1_000;
    const query = vi.spyOn(database.db, 'execute');
    const mayReach = createSignalCheck(database.db, { ttlMs: 5_000, now: () => now });

    expect(await mayReach(ann, ben)).toEqual(conversation);
    const asked = query.mock.calls.length;
    expect(asked).toBeGreaterThan(0);
    // Ben blocks Ann: the remembered answer still stands for its lifetime, without a query…
    await blockUser(database.db, ben, ann);
    query.mockClear();
    now += 4_999;
    expect(await mayReach(ann, ben)).toEqual(conversation);
    expect(query).not.toHaveBeenCalled();
    // …and the next signal after it sees the block.
    now += 1;
    expect(await mayReach(ann, ben)).toBe(false);
    expect(query).toHaveBeenCalled();
    query.mockRestore();
  });

  it('names the two people’s conversation as the recipient has it, from the first message on: "none yet" is never remembered', async () => {
    const [ann, ben] = [await newUser(), await newUser()];
    const mayReach = createSignalCheck(database.db);
    expect(await mayReach(ann, ben)).toEqual({ conversationId: null });
    await insertMessage(database.db, { senderId: ben, recipientId: ann, clientId: 'first', text: 'hi' });
    expect(await mayReach(ann, ben)).toEqual({ conversationId: await directConversationId(database.db, ann, ben) });
  });

  it('refuses someone whose signals "who can message me" shuts out, and no one the other way', async () => {
    const [ann, closed] = [await newUser(), await newUser()];
    expect(await updateSettings(database.db, closed, { messagePolicy: 'nobody' })).not.toBeNull();
    expect(await createSignalCheck(database.db)(ann, closed)).toBe(false);
    expect(await createSignalCheck(database.db)(closed, ann)).toEqual({ conversationId: null });
  });

  it('asks once for signals that arrive together, and never for oneself', async () => {
    const [ann, ben] = [await newUser(), await newUser()];
    const query = vi.spyOn(database.db, 'execute');
    const mayReach = createSignalCheck(database.db);
    expect(await Promise.all([mayReach(ann, ben), mayReach(ann, ben), mayReach(ann, ben)])).toEqual([{ conversationId: null }, { conversationId: null }, { conversationId: null }]);
    expect(query).toHaveBeenCalledTimes(1);
    expect(await mayReach(ann, ann)).toBe(false);
    query.mockRestore();
  });

  it('asks about different pairs one at a time, so a burst never queues ahead of the message writer', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => newUser()));
    const execute = database.db.execute.bind(database.db);
    let inFlight = 0;
    let most = 0;
    const counted = async (...args: Parameters<typeof execute>) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        return await execute(...args);
      } finally {
        inFlight -= 1;
      }
    };
    const query = vi.spyOn(database.db, 'execute').mockImplementation(counted as unknown as typeof execute);
    const mayReach = createSignalCheck(database.db);
    expect(await Promise.all(people.slice(1).map((to) => mayReach(people[0]!, to)))).toEqual(Array.from({ length: 5 }, () => ({ conversationId: null })));
    expect(query).toHaveBeenCalledTimes(5);
    expect(most).toBe(1);
    query.mockRestore();
  });

  it('keeps at most maxPairs answers, forgetting the oldest first', async () => {
    const [ann, ben, cat] = [await newUser(), await newUser(), await newUser()];
    // Answers with a conversation to name: those are the ones remembered.
    for (const peer of [ben, cat]) await insertMessage(database.db, { senderId: peer, recipientId: ann, clientId: `kept-${peer}`, text: 'hi' });
    const query = vi.spyOn(database.db, 'execute');
    const mayReach = createSignalCheck(database.db, { maxPairs: 1 });
    await mayReach(ann, ben);
    await mayReach(ann, cat);
    query.mockClear();
    await mayReach(ann, cat);
    expect(query).not.toHaveBeenCalled();
    await mayReach(ann, ben);
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
  });
});
