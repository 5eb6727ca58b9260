// What the cluster test reads off what it ran, without acting on anything: messages acked since a
// moment, when traffic first crossed nodes live both ways, where a balancer routed connections, a
// tab's events by name; and how it prints its figures.
import type { Balancer } from './balancer';
import type { Tab } from './tab';
import type { Group } from './traffic';

/** Messages of the group acknowledged by the server after `since` (Date.now()). */
export function ackedSince(group: Group, since: number): number {
  return group.clients.reduce((n, client) => n + client.written.filter((entry) => entry.ackedAt !== undefined && entry.ackedAt > since).length, 0);
}

/**
 * When (Date.now()) messages written from `since` on had crossed live (not through a sync) in both
 * directions, A → B and B → A: the later of the two first arrivals; null until both have.
 */
export function crossNodeDelivered(group: Group, since: number): number | null {
  const sentAt = new Map<string, number>();
  for (const client of group.clients) {
    for (const entry of client.written) if (entry.lastAttemptAt !== undefined) sentAt.set(`${client.userId}/${entry.clientId}`, entry.lastAttemptAt);
  }
  const firstByDirection = new Map<string, number>();
  for (const client of group.clients) {
    const to = group.urlOf.get(client.userId);
    for (const message of client.inbox.received()) {
      const from = group.urlOf.get(message.sender_id);
      if (from === to) continue;
      if (client.inbox.arrivedVia.get(message.id) !== 'live') continue;
      if ((sentAt.get(`${message.sender_id}/${message.client_id}`) ?? -Infinity) < since) continue;
      const at = client.inbox.arrivedAt.get(message.id)!;
      const direction = `${from} > ${to}`;
      firstByDirection.set(direction, Math.min(at, firstByDirection.get(direction) ?? Infinity));
    }
  }
  return firstByDirection.size === 2 ? Math.max(...firstByDirection.values()) : null;
}

/** The node ports a balancer sent connections to, from `since` on. */
export function routedTo(balancer: Balancer, since: number): number[] {
  return balancer.routed.filter((route) => route.at >= since).map((route) => route.port);
}

/** A tab's events by name, each payload reduced to what identifies it, sorted: duplicates show. */
export function eventsOf(tab: Tab): Record<string, string[]> {
  const names = ['message_count', 'followed', 'follower', 'message', 'message_sent', 'message_change', 'account_item', 'seen'];
  const byName: Record<string, string[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const { name, payload } of tab.events) {
    const p = payload as Record<string, unknown>;
    let key: string;
    if (name === 'message' || name === 'message_sent') key = `#${String(p.id)}`;
    else if (name === 'followed' || name === 'follower') key = `${String(p.follower_id)}>${String(p.followee_id)}:${String(p.following)}`;
    else if (name === 'message_count') key = String(p.count);
    else if (name === 'message_change' || name === 'account_item') key = `${String(p.kind)}@${String(p.seq)}`;
    else if (name === 'seen') key = `${String(p.user_id)}@${String(p.seq)}`;
    else key = JSON.stringify(payload);
    (byName[name] ??= []).push(key);
  }
  for (const list of Object.values(byName)) list.sort();
  return byName;
}

export function report(title: string, figures: [string, string | number][]): void {
  const width = Math.max(...figures.map(([label]) => label.length));
  console.log([title, ...figures.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)].join('\n'));
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}
