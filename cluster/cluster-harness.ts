// The cluster a cluster test file runs against, shared by its cases: started before them, the cases'
// cleanups run after each, stopped after all; and what the cases reach it with (a tab on a node, a
// send, a node's port, simulated users behind a balancer per node).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { ServerProcess } from '../faults/server-process';
import { startBalancer } from './balancer';
import { createCluster, type Cluster } from './cluster';
import { routedTo } from './cluster-observations';
import { Tab, type SeededSession } from './tab';
import { connectGroup } from './traffic';

export const GROUP_SIZE = 12;

export let cluster: Cluster;
export const cleanups: (() => unknown)[] = [];

/** Call at the top of a cluster test file: registers the hooks that start its cluster, run the cleanups after each case and stop it. */
export function registerClusterHooks(): void {
  const handle = createCluster({ users: 9 + 3 * GROUP_SIZE });
  beforeAll(async () => {
    cluster = await handle.start();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(() => handle.stop());
}

export const portOf = (node: ServerProcess) => Number(new URL(node.url).port);
export const open = async (label: string, node: ServerProcess, user: SeededSession) => {
  const tab = new Tab(label, node.url, user);
  cleanups.push(() => tab.close());
  return tab.open();
};
export const send = (tab: Tab, recipientId: number, text: string) =>
  tab.call('send', { client_id: randomUUID(), recipient_id: recipientId, text, attachment_id: null });

/**
 * A load balancer per node, as production would have (each prefers its node, then the other), and
 * GROUP_SIZE simulated users, half connected through each; checks A's first connections went to A.
 */
export async function balancedGroup() {
  const { a, b } = cluster;
  const viaA = await startBalancer([portOf(a), portOf(b)]);
  const viaB = await startBalancer([portOf(b), portOf(a)]);
  cleanups.push(() => viaA.close(), () => viaB.close());
  const group = await connectGroup(cluster.take(GROUP_SIZE), (_, index) => (index % 2 === 0 ? viaA.url : viaB.url));
  cleanups.push(() => group.close());
  const onA = group.clients.filter((client) => group.urlOf.get(client.userId) === viaA.url);
  expect(routedTo(viaA, 0), 'first connections through A’s balancer').toEqual(onA.map(() => portOf(a)));
  return { viaA, viaB, group, onA };
}
