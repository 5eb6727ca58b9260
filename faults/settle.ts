// When a run of simulated clients has settled: every outbox empty, and every client holding every
// acknowledged message written to or by it. Both the fault test and the cluster test wait on it.
import type { SimClient } from './sim-client';

/** By user: the ids of every acknowledged message written to or by them. */
function expectedMessages(clients: SimClient[], ackedBefore = Infinity): Map<number, number[]> {
  const expected = new Map(clients.map((client) => [client.userId, [] as number[]]));
  for (const client of clients) {
    for (const entry of client.written) {
      if (!entry.acked || entry.ackedAt! > ackedBefore) continue;
      expected.get(client.userId)!.push(entry.acked.id);
      expected.get(entry.recipientId)?.push(entry.acked.id);
    }
  }
  return expected;
}

/**
 * Every outbox empty, every client ready with no gap, and each holding every message the acks say
 * was written to or by it: nothing acknowledged is still on its way.
 */
export function allCaughtUp(clients: SimClient[]): boolean {
  if (clients.some((client) => client.pending > 0 || !client.isReady || client.inbox.hasGap)) return false;
  const expected = expectedMessages(clients);
  return clients.every((client) => expected.get(client.userId)!.every((id) => client.inbox.hasMessage(id)));
}

/**
 * A client with nothing to send, no gap and a connection caught up may still lack a message
 * acknowledged a while ago: its live event was lost with nothing after it in its conversation, and
 * no gap shows that until the next connect. Each such client catches up now as a connect would, at
 * most once per `graceMs`; returns how many were asked (each counted in its `idleCatchUps`). `now`
 * is the clock the clients use.
 */
export function catchUpIdle(clients: SimClient[], now: number, graceMs = 1_000): number {
  const expected = expectedMessages(clients, now - graceMs);
  let asked = 0;
  for (const client of clients) {
    if (client.pending > 0 || !client.isReady || client.inbox.hasGap || now - client.lastIdleCatchUpAt < graceMs) continue;
    if (expected.get(client.userId)!.every((id) => client.inbox.hasMessage(id))) continue;
    client.lastIdleCatchUpAt = now;
    client.stats.idleCatchUps++;
    asked++;
    void client.syncNow();
  }
  return asked;
}

/** Why each client that has not caught up has not, one line each. */
export function lagging(clients: SimClient[]): string[] {
  const expected = expectedMessages(clients);
  return clients.flatMap((client) => {
    const { inbox } = client;
    const missing = expected.get(client.userId)!.filter((id) => !inbox.hasMessage(id));
    if (client.pending === 0 && client.isReady && !inbox.hasGap && missing.length === 0) return [];
    const gaps = `gaps in conversations [${inbox.gaps().join(', ')}]${inbox.hasItemGap ? ' and in account items' : ''}`;
    return [`user ${client.userId}: ${client.pending} pending, ready ${client.isReady}, ${gaps}, missing messages [${missing.join(', ')}]`];
  });
}
