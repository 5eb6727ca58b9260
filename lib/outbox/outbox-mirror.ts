// This tab's copy of each message written to the outbox, made synchronously as it is written, as
// draft-mirror.ts does for drafts: the IndexedDB write is asynchronous, and one started a moment
// before a reload (a person offline, sending, then reloading at once) may never commit. The thread
// already shows the message as waiting; sessionStorage is written before setItem returns and
// outlives the reload, so the next load finds it and stores it properly (outbox-storage.ts,
// withTabMirror). Not localStorage, which holds only `token` and `locale` (docs/CLIENT-RULES.md).
import { tabStorage } from '@/lib/storage/tab-storage';

const PREFIX = 'parley-outbox:';

/** What names an entry: its sender and its client id. */
interface Keyed {
  sender_id: number;
  client_id: string;
}

const keyOf = (entry: Keyed) => `${PREFIX}${entry.sender_id}:${entry.client_id}`;

export function writeMirror(entry: Keyed): void {
  try {
    tabStorage()?.setItem(keyOf(entry), JSON.stringify(entry));
  } catch {
    // Full or refused: the IndexedDB write still follows.
  }
}

export function clearMirror(entry: Keyed): void {
  try {
    tabStorage()?.removeItem(keyOf(entry));
  } catch {
    // Left behind: the next load finds the entry stored, and clears it then.
  }
}

/** The sender's mirrored entries, as written. */
export function readMirror<T extends Keyed>(senderId: number): T[] {
  const tab = tabStorage();
  if (!tab) return [];
  const entries: T[] = [];
  for (let i = 0; i < tab.length; i++) {
    const key = tab.key(i);
    if (!key?.startsWith(`${PREFIX}${senderId}:`)) continue;
    try {
      const entry = JSON.parse(tab.getItem(key) ?? '') as T;
      if (entry.sender_id === senderId && typeof entry.client_id === 'string') entries.push(entry);
    } catch {
      // Not ours to read.
    }
  }
  return entries;
}
