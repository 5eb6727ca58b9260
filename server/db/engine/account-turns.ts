// Database connections taken in turn by account. On PGlite there is one connection, and the pool
// hands it out in arrival order: one account whose twenty sockets each asked for a sync page put
// twenty page reads ahead of everyone's next message batch, so everyone waited for all of them.
// Here each piece of work says whose it is (an AsyncLocalStorage store set where the account is
// known: a socket event, an authenticated request), and a free connection goes to the next account
// in turn, one acquisition each, so another account's work waits behind at most one of the
// flooder's queries instead of behind its whole queue. Work that is everyone's (the message and
// change writers' batches, which carry many accounts' sends) goes first when it waits: there is
// one batch of each at a time, so it cannot starve the others.
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/** Whose work this is: an account id, or a kind of caller not yet known (a handshake, a request before its session is read). */
export type Payer = number | string;

const SHARED = Symbol('shared');
type Key = Payer | typeof SHARED;

interface Store {
  payer: Key;
}

const context = new AsyncLocalStorage<Store>();
/** Work begun outside actingFor (timers, sweeps, a caller not wrapped): one turn for all of it. */
const UNATTRIBUTED = 'unattributed';

/** Runs `work` (and everything it starts) as `payer`'s. */
export function actingFor<T>(payer: Payer, work: () => T): T {
  return context.run({ payer }, work);
}

/**
 * From here on, the work under way (begun by actingFor) is `payer`'s: a request is its anonymous
 * caller's until its session is read, then its account's. Outside actingFor it does nothing.
 */
export function nowActingFor(payer: Payer): void {
  const store = context.getStore();
  if (store) store.payer = payer;
}

/** Runs `work` as everyone's: a writer's batch, which carries many accounts' items. It goes first. */
export function asShared<T>(work: () => T): T {
  return context.run({ payer: SHARED }, work);
}

function currentKey(): Key {
  return context.getStore()?.payer ?? UNATTRIBUTED;
}

type Connect = pg.Pool['connect'];
type Waiter = () => void;

/**
 * Makes `pool` hand its connections out in turn: at most `slots` held at once (the pool's size),
 * and when they are all held, a freed one goes to the shared work if it waits, else to the next
 * account in turn after the last one served. Each account's own requests keep their order.
 */
export function takeTurns(pool: pg.Pool, slots: number): void {
  const original = pool.connect.bind(pool) as (callback?: unknown) => Promise<pg.PoolClient>;
  const waiting = new Map<Key, Waiter[]>();
  let held = 0;
  let lastServed: Key | undefined;

  const nextKey = (): Key | undefined => {
    if (waiting.has(SHARED)) return SHARED;
    const keys = [...waiting.keys()];
    if (keys.length === 0) return undefined;
    // The first key after the last one served, in the order accounts started waiting.
    const after = lastServed === undefined ? -1 : keys.indexOf(lastServed);
    return after === -1 ? keys[0] : keys[(after + 1) % keys.length];
  };

  const dispatch = () => {
    while (held < slots) {
      const key = nextKey();
      if (key === undefined) return;
      const queue = waiting.get(key)!;
      const start = queue.shift()!;
      if (queue.length === 0) waiting.delete(key);
      // Rotation is among accounts; shared work does not move it.
      if (key !== SHARED) lastServed = key;
      held += 1;
      start();
    }
  };

  const freed = () => {
    held -= 1;
    dispatch();
  };

  const acquire = async (): Promise<pg.PoolClient> => {
    const key = currentKey();
    await new Promise<void>((resolve) => {
      const queue = waiting.get(key);
      if (queue) queue.push(resolve);
      else waiting.set(key, [resolve]);
      dispatch();
    });
    let client: pg.PoolClient;
    try {
      client = await original();
    } catch (error) {
      freed();
      throw error;
    }
    const release = client.release;
    let released = false;
    client.release = (error?: Error | boolean) => {
      if (released) return release.call(client, error);
      released = true;
      const answer = release.call(client, error);
      freed();
      return answer;
    };
    return client;
  };

  const connect = (callback?: (error: Error | undefined, client?: pg.PoolClient, done?: (error?: Error | boolean) => void) => void) => {
    const acquired = acquire();
    if (!callback) return acquired;
    acquired.then(
      (client) => callback(undefined, client, client.release.bind(client)),
      (error: Error) => callback(error),
    );
    return undefined;
  };
  pool.connect = connect as unknown as Connect;
}
