// The cluster test (docs/DELIVERY.md, "Cluster test"), failover: two production server nodes
// sharing a throwaway PostgreSQL and Redis, under simulated users' traffic. A node killed with
// SIGKILL hands its clients to the other, and so does one stopped gracefully (SIGTERM); Redis
// restarting mid-traffic loses nothing acknowledged. What crosses nodes is in cross-node.test.ts.
import { expect, it } from 'vitest';
import { delay, waitUntil } from '../testing/wait';
import { DRAIN_MS_A } from './cluster';
import { GROUP_SIZE, balancedGroup, cleanups, cluster, portOf, registerClusterHooks } from './cluster-harness';
import { ackedSince, crossNodeDelivered, report, routedTo, seconds } from './cluster-observations';
import { connectGroup, settleAndVerify, traffic } from './traffic';

const WRITE_EVERY_MS = 400;
/** Messages acknowledged before each fault and after it: enough traffic on both sides of it. */
const ACKED_AROUND_FAULT = 60;
const PROGRESS_TIMEOUT_MS = 30_000;
const RECONNECT_TIMEOUT_MS = 30_000;
/** How long Redis stays away: part of the scenario, not a wait for something. */
const REDIS_OUTAGE_MS = 1_500;
/** How soon cross-node delivery must be back once Redis is (docs/DELIVERY.md, "Cluster test"). */
const RESUME_LIMIT_MS = 5_000;
const SEED = Number(process.env.CLUSTER_SEED || Math.floor(Math.random() * 2 ** 31));

registerClusterHooks();

it('moves node A’s clients to node B when A is killed (kill -9), losing nothing acknowledged', async () => {
  const { a, b } = cluster;
  const { viaA, group, onA } = await balancedGroup();

  let going = true;
  const writing = traffic(group.clients, { everyMs: WRITE_EVERY_MS, seed: SEED, going: () => going });
  cleanups.push(() => (going = false));
  await waitUntil(() => ackedSince(group, 0) >= ACKED_AROUND_FAULT, { timeoutMs: PROGRESS_TIMEOUT_MS, what: 'traffic before the kill' });
  // Kill while one of A's clients waits for an ack, if that happens soon (it usually does).
  await waitUntil(() => onA.some((client) => client.isSending), { timeoutMs: 3_000, everyMs: 1, what: 'a send in flight' }).catch(() => undefined);
  const inFlight = onA.filter((client) => client.isSending).length;
  const killedAt = Date.now();
  await a.kill();

  await waitUntil(() => onA.every((client) => client.connections.some((record) => record.connectedAt > killedAt && record.syncedAt)), {
    timeoutMs: RECONNECT_TIMEOUT_MS,
    what: 'A’s clients reconnected (to B) and synced',
  });
  const reconnectedMs = Date.now() - killedAt;
  await waitUntil(() => ackedSince(group, killedAt) >= ACKED_AROUND_FAULT, { timeoutMs: PROGRESS_TIMEOUT_MS, what: 'traffic after the kill' });
  going = false;
  await writing;
  const { settled, verdict, catchUpFailures, modelFaults } = await settleAndVerify(group.clients, cluster.database.db);
  report('Cluster: kill -9 of node A', [
    ['clients', group.clients.length],
    ['sent / acked / stored', `${verdict.sent} / ${verdict.acked} / ${verdict.stored}`],
    ['lost / duplicates', `${verdict.lost} / ${verdict.duplicatesStored + verdict.duplicatesReceived}`],
    ['sends in flight on A at the kill', inFlight],
    ['A’s clients reconnected to B and synced', seconds(reconnectedMs)],
    ['idle clients caught up (live event lost, nothing after)', group.clients.reduce((n, client) => n + client.stats.idleCatchUps, 0)],
    ['seed (CLUSTER_SEED)', SEED],
  ]);

  expect(settled).toBe('yes');
  expect(verdict.failures, `node B output:\n${b.tail(20)}`).toEqual({});
  expect(verdict.acked).toBe(verdict.sent);
  expect(verdict.lost).toBe(0);
  expect(verdict.duplicatesStored + verdict.duplicatesReceived).toBe(0);
  expect(catchUpFailures).toEqual({});
  expect(modelFaults).toEqual([]);
  // Every reconnection through A's balancer after the kill went to B.
  const afterKill = routedTo(viaA, killedAt);
  expect(afterKill.length).toBeGreaterThanOrEqual(onA.length);
  expect(new Set(afterKill)).toEqual(new Set([portOf(b)]));

  // A comes back on the same port and rejoins: events cross between the nodes again.
  await a.start();
  await cluster.meshed();
});

it('loses nothing acknowledged when Redis restarts mid-traffic, and cross-node delivery is back within 5 s', async () => {
  const { a, b, redis } = cluster;
  if (!a.running) await a.start(); // the previous case failed before restarting it
  const pids = [a.pid, b.pid];
  const group = await connectGroup(cluster.take(GROUP_SIZE), (_, index) => (index % 2 === 0 ? a.url : b.url));
  cleanups.push(() => group.close());

  let going = true;
  const writing = traffic(group.clients, { everyMs: WRITE_EVERY_MS, seed: SEED + 1, going: () => going });
  cleanups.push(() => (going = false));
  await waitUntil(() => crossNodeDelivered(group, 0) !== null && ackedSince(group, 0) >= ACKED_AROUND_FAULT, {
    timeoutMs: PROGRESS_TIMEOUT_MS,
    what: 'traffic crossing nodes before the restart',
  });
  const killedAt = Date.now();
  await redis.kill();
  await delay(REDIS_OUTAGE_MS);
  const ackedWithoutRedis = ackedSince(group, killedAt);
  await redis.start();
  const backAt = Date.now();

  // Traffic goes on until messages sent since Redis is back crossed nodes live both ways, and then some.
  await waitUntil(() => crossNodeDelivered(group, backAt) !== null && ackedSince(group, backAt) >= ACKED_AROUND_FAULT, {
    timeoutMs: PROGRESS_TIMEOUT_MS,
    what: 'cross-node delivery after Redis came back',
  }).catch(() => undefined); // asserted below, after the check of what was stored
  going = false;
  await writing;
  const { settled, verdict, catchUpFailures, modelFaults } = await settleAndVerify(group.clients, cluster.database.db);
  const resumedAt = crossNodeDelivered(group, backAt);
  const errors = [...a.errorLines(), ...b.errorLines()];
  report('Cluster: Redis restart', [
    ['clients', group.clients.length],
    ['sent / acked / stored', `${verdict.sent} / ${verdict.acked} / ${verdict.stored}`],
    ['lost / duplicates', `${verdict.lost} / ${verdict.duplicatesStored + verdict.duplicatesReceived}`],
    ['acked while Redis was down', `${ackedWithoutRedis} in ${seconds(REDIS_OUTAGE_MS)}`],
    ['cross-node delivery both ways after Redis was back', resumedAt === null ? 'never' : seconds(resumedAt - backAt)],
    ['received through sync first (live event late or lost)', group.clients.reduce((n, client) => n + client.inbox.receivedBySync, 0)],
    ['idle clients caught up (live event lost, nothing after)', group.clients.reduce((n, client) => n + client.stats.idleCatchUps, 0)],
    ['error lines logged by the nodes', errors.length],
    ['seed (CLUSTER_SEED)', SEED],
  ]);

  expect(settled).toBe('yes');
  expect(verdict.failures, `node output:\n${a.tail(10)}\n${b.tail(10)}`).toEqual({});
  expect(verdict.acked).toBe(verdict.sent);
  expect(verdict.lost).toBe(0);
  expect(verdict.duplicatesStored + verdict.duplicatesReceived).toBe(0);
  expect(catchUpFailures).toEqual({});
  expect(modelFaults).toEqual([]);
  expect(resumedAt, 'messages sent after Redis was back did not cross nodes live both ways').not.toBeNull();
  expect(resumedAt! - backAt, 'cross-node delivery both ways after Redis was back (ms)').toBeLessThanOrEqual(RESUME_LIMIT_MS);
  // Neither node crashed or restarted; both answer.
  expect([a.running, b.running, a.pid, b.pid]).toEqual([true, true, ...pids]);
  for (const node of [a, b]) expect((await fetch(`${node.url}/api/health`)).status).toBe(200);
  expect(errors.filter((line) => /"level":60|uncaught|unhandled/i.test(line))).toEqual([]);
});

it('hands node A’s clients to node B on a graceful stop (SIGTERM): ready turns 503, A exits 0, nothing acknowledged lost or doubled', async () => {
  const { a, b } = cluster;
  if (!a.running) await a.start(); // an earlier case failed before restarting it
  const errorsBefore = a.errorLines().length + b.errorLines().length;
  const { viaA, group, onA } = await balancedGroup();

  let going = true;
  const writing = traffic(group.clients, { everyMs: WRITE_EVERY_MS, seed: SEED + 2, going: () => going });
  cleanups.push(() => (going = false));
  await waitUntil(() => ackedSince(group, 0) >= ACKED_AROUND_FAULT, { timeoutMs: PROGRESS_TIMEOUT_MS, what: 'traffic before the stop' });

  const stoppedAt = Date.now();
  const stopped = a.stop();
  // A's readiness, straight from A (not through a balancer), until the process has gone: the drain
  // (DRAIN_MS_A) keeps it answering 503 for long enough to be seen, however slow the machine.
  const readyAnswers: (number | 'refused')[] = [];
  while (a.running) {
    readyAnswers.push(await fetch(`${a.url}/api/ready`).then((response) => response.status, () => 'refused' as const));
    await delay(10);
  }
  await stopped;
  const exitedMs = Date.now() - stoppedAt;

  await waitUntil(() => onA.every((client) => client.connections.some((record) => record.connectedAt > stoppedAt && record.syncedAt)), {
    timeoutMs: RECONNECT_TIMEOUT_MS,
    what: 'A’s clients reconnected (to B) and synced',
  });
  const reconnectedMs = Date.now() - stoppedAt;
  await waitUntil(() => ackedSince(group, stoppedAt) >= ACKED_AROUND_FAULT, { timeoutMs: PROGRESS_TIMEOUT_MS, what: 'traffic after the stop' });
  going = false;
  await writing;
  const { settled, verdict, catchUpFailures, modelFaults } = await settleAndVerify(group.clients, cluster.database.db);
  const firstRefusal = readyAnswers.indexOf(503);
  report('Cluster: graceful stop (SIGTERM) of node A', [
    ['clients', group.clients.length],
    ['sent / acked / stored', `${verdict.sent} / ${verdict.acked} / ${verdict.stored}`],
    ['lost / duplicates', `${verdict.lost} / ${verdict.duplicatesStored + verdict.duplicatesReceived}`],
    ['A’s readiness answers (200 / 503 / refused)', ['200', '503', 'refused'].map((status) => readyAnswers.filter((answer) => String(answer) === status).length).join(' / ')],
    ['A exited after SIGTERM', `${seconds(exitedMs)} (drain ${seconds(DRAIN_MS_A)}), ${JSON.stringify(a.exit)}`],
    ['A’s clients reconnected to B and synced', seconds(reconnectedMs)],
    ['transient refusals retried by clients', group.clients.reduce((n, client) => n + client.stats.transientErrors, 0)],
    ['idle clients caught up (live event lost, nothing after)', group.clients.reduce((n, client) => n + client.stats.idleCatchUps, 0)],
    ['seed (CLUSTER_SEED)', SEED],
  ]);

  expect(a.exit, a.tail(20)).toEqual({ code: 0, signal: null });
  // Readiness failed before A closed, and never said ready again.
  expect(firstRefusal, `A’s readiness answers: ${readyAnswers.join(' ')}`).toBeGreaterThanOrEqual(0);
  expect(readyAnswers.slice(firstRefusal)).not.toContain(200);
  expect(settled).toBe('yes');
  expect(verdict.failures, `node output:\n${a.tail(10)}\n${b.tail(10)}`).toEqual({});
  expect(verdict.acked).toBe(verdict.sent);
  expect(verdict.lost).toBe(0);
  expect(verdict.duplicatesStored + verdict.duplicatesReceived).toBe(0);
  expect(catchUpFailures).toEqual({});
  expect(modelFaults).toEqual([]);
  // A closed its clients' sockets only after it stopped accepting: every reconnection through A's
  // balancer went to B.
  const afterStop = routedTo(viaA, stoppedAt);
  expect(afterStop.length).toBeGreaterThanOrEqual(onA.length);
  expect(new Set(afterStop)).toEqual(new Set([portOf(b)]));
  expect([...a.errorLines(), ...b.errorLines()].slice(errorsBefore)).toEqual([]);

  // A comes back and rejoins, so whatever runs after this case finds two nodes.
  await a.start();
  await cluster.meshed();
});
