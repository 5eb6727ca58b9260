// Simulated users writing to each other through their outboxes while a test breaks things, and
// the check afterwards: every acknowledged message stored once and held by both sides (Postgres).
// They speak socket protocol 2 (by conversation), as the app does.
import { pick, seededRandom } from '../faults/random';
import { allCaughtUp, catchUpIdle, lagging } from '../faults/settle';
import { SimClient } from '../faults/sim-client';
import { readStoredHeads, readStoredMessages, verify, verifyCatchUps, type Verdict } from '../faults/verify';
import type { Db } from '../server/db/engine/open-database';
import { conversationModelFaults } from '../testing/conversation-model';
import type { SeededUser } from '../testing/seed';
import { delay, waitUntil, within } from '../testing/wait';

const CONNECT_TIMEOUT_MS = 30_000;
const SETTLE_TIMEOUT_MS = 30_000;

export interface Group {
  clients: SimClient[];
  /** Which URL each user was given (a node, or a balancer in front of the nodes). */
  urlOf: Map<number, string>;
  close(): void;
}

/** One SimClient per user, connected to `urlFor(user)`; resolves once all are initialised and synced. */
export async function connectGroup(users: SeededUser[], urlFor: (user: SeededUser, index: number) => string): Promise<Group> {
  const urlOf = new Map(users.map((user, index) => [user.id, urlFor(user, index)]));
  const clients = users.map((user) => new SimClient({ url: urlOf.get(user.id)!, user, now: Date.now }));
  for (const client of clients) client.connect();
  const group = { clients, urlOf, close: () => clients.forEach((client) => client.close()) };
  await within(CONNECT_TIMEOUT_MS, Promise.all(clients.map((client) => client.whenReady())), 'every client connected').catch((error: Error) => {
    group.close();
    throw error;
  });
  return group;
}

/**
 * Every client writes to random others of the group, one message every `everyMs` on average,
 * until `going()` says stop; resolves when all writers have stopped. Texts are unique per sender
 * (verify recognises second copies by them).
 */
export function traffic(clients: SimClient[], options: { everyMs: number; seed: number; going: () => boolean }): Promise<void> {
  const ids = clients.map((client) => client.userId);
  return Promise.all(
    clients.map(async (client) => {
      const random = seededRandom(options.seed + client.userId * 7_919);
      const others = ids.filter((id) => id !== client.userId);
      for (let n = 1; ; n++) {
        await delay(options.everyMs * (0.5 + random()));
        if (!options.going()) return;
        client.write(pick(random, others), `#${n} from ${client.userId}`);
      }
    }),
  ).then(() => undefined);
}

/**
 * Waits until every outbox is empty and every client holds all it should (`settled`, with why not
 * when it timed out), then checks what they hold against Postgres. A client idle and still missing
 * a message meanwhile catches up as a reconnect would (catchUpIdle: a live event lost with nothing
 * after it, as while Redis is away, shows no gap).
 */
export async function settleAndVerify(
  clients: SimClient[],
  db: Db,
): Promise<{
  settled: string;
  verdict: Verdict;
  /** Catch-ups that left out something acknowledged before them (verifyCatchUps). */
  catchUpFailures: Record<string, string[]>;
  modelFaults: Awaited<ReturnType<typeof conversationModelFaults>>;
}> {
  const settled = await waitUntil(() => (catchUpIdle(clients, Date.now()), allCaughtUp(clients)), {
    timeoutMs: SETTLE_TIMEOUT_MS,
    everyMs: 50,
    what: 'every outbox empty and every client caught up',
    detail: () => lagging(clients).join('\n'),
  }).then(
    () => 'yes',
    (error: Error) => error.message,
  );
  const ids = new Set(clients.map((client) => client.userId));
  // The database holds other tests' messages too; this group only writes among itself.
  const stored = (await readStoredMessages(db)).filter((row) => ids.has(row.senderId) || (row.recipientId !== null && ids.has(row.recipientId)));
  // The conversation model, whole across nodes (every test's rows).
  return {
    settled,
    verdict: verify(clients, stored, await readStoredHeads(db)),
    catchUpFailures: verifyCatchUps(clients),
    modelFaults: await conversationModelFaults(db),
  };
}
