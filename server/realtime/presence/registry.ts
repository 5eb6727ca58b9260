// Which users have a connected tab on some node: the shared half of presence. One node keeps it in
// memory; several nodes keep it in Redis (redis-registry.ts), where a node that dies stops
// heartbeating and its users are taken offline by the others. A node only tells the registry
// about each of its users once (first tab in, last tab out); presence.ts counts the tabs.

export interface PresenceRegistry {
  /** This node now holds a tab of `userId`. True when nobody held one before: they came online. */
  add(userId: number): Promise<boolean>;
  /** This node holds no tab of `userId` any more. True when no node does: they went offline. */
  remove(userId: number): Promise<boolean>;
  /** Which of `userIds` have a tab on a live node. */
  online(userIds: readonly number[]): Promise<Set<number>>;
  /** The users this node is registered for (compared with its tabs after an outage). */
  registered(): Promise<number[]>;
  /** Starts the heartbeat (several nodes). */
  start(hooks: RegistryHooks): void;
  /** Stops the heartbeat; entries are left to expire (docs/DEPLOY.md, "Presence"). */
  close(): void;
}

export interface RegistryHooks {
  /** Users whose node stopped heartbeating and who have no tab elsewhere: offline since `at`. */
  expired(users: { userId: number; at: Date }[]): void;
  /** This node's entries were lost (Redis restarted, or the node was taken for dead): register again. */
  lost(): void;
}

/** One node: the registry is this process's own users. */
export function createMemoryRegistry(): PresenceRegistry {
  const present = new Set<number>();
  return {
    add: async (userId) => {
      const before = present.size;
      present.add(userId);
      return present.size > before;
    },
    remove: async (userId) => present.delete(userId),
    online: async (userIds) => new Set(userIds.filter((id) => present.has(id))),
    registered: async () => [...present],
    start: () => {},
    close: () => {},
  };
}
