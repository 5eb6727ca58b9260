// This tab's copy of each message written to the outbox, made synchronously as it is written, as
// draft-mirror.ts does for drafts: the IndexedDB write is asynchronous, and one started a moment
// before a reload (a person offline, sending, then reloading at once) may never commit. The thread
// already shows the message as waiting; sessionStorage is written before setItem returns and
// outlives the reload, so the next load finds it and stores it properly. Not localStorage, which
// holds only `token` and `locale` (docs/CLIENT-RULES.md).
import type { OutboxEntry, OutboxStorage } from './outbox-storage';

const PREFIX = 'parley-outbox:';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

const keyOf = (entry: Pick<OutboxEntry, 'sender_id' | 'client_id'>) => `${PREFIX}${entry.sender_id}:${entry.client_id}`;

function write(entry: OutboxEntry): void {
  try {
    storage()?.setItem(keyOf(entry), JSON.stringify(entry));
  } catch {
    // Full or refused: the IndexedDB write still follows.
  }
}

function clear(entry: Pick<OutboxEntry, 'sender_id' | 'client_id'>): void {
  try {
    storage()?.removeItem(keyOf(entry));
  } catch {
    // Left behind: the next load finds the entry stored, and clears it then.
  }
}

/** The sender's mirrored entries. */
function mirrored(senderId: number): OutboxEntry[] {
  const tab = storage();
  if (!tab) return [];
  const entries: OutboxEntry[] = [];
  for (let i = 0; i < tab.length; i++) {
    const key = tab.key(i);
    if (!key?.startsWith(`${PREFIX}${senderId}:`)) continue;
    try {
      const entry = JSON.parse(tab.getItem(key) ?? '') as OutboxEntry;
      if (entry.sender_id === senderId && typeof entry.client_id === 'string') entries.push(entry);
    } catch {
      // Not ours to read.
    }
  }
  return entries;
}

/** `stored` with this tab's mirror in front: what is written is kept here until it is stored. */
export function withTabMirror(stored: OutboxStorage): OutboxStorage {
  return {
    async load(senderId) {
      const entries = await stored.load(senderId);
      const known = new Set(entries.map((entry) => entry.client_id));
      const missing = mirrored(senderId).filter((entry) => !known.has(entry.client_id));
      for (const entry of missing) {
        // Stored now; the mirror stays if that fails, and serves again next time.
        await stored.put(entry).then(() => clear(entry), () => undefined);
      }
      for (const entry of mirrored(senderId)) if (known.has(entry.client_id)) clear(entry);
      return [...entries, ...missing].sort((a, b) => a.position - b.position);
    },
    async put(entry) {
      write(entry);
      await stored.put(entry);
      clear(entry);
    },
    async remove(entry) {
      clear(entry);
      await stored.remove(entry);
    },
  };
}
