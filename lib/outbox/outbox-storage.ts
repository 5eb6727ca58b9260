// Where unacknowledged messages wait, so that a reload or a crash loses none of them: IndexedDB
// when the browser has it (localStorage holds only `token` and `locale`: docs/CLIENT-RULES.md),
// memory otherwise.
import type { Attachment, ReplySummary } from '@/lib/contract';
import { OUTBOX_STORE, openParleyDb } from '@/lib/storage/parley-db';
import { clearMirror, readMirror, writeMirror } from './outbox-mirror';

/** A message the server has not acknowledged yet. */
export interface OutboxEntry {
  client_id: string;
  sender_id: number;
  recipient_id: number;
  text: string;
  attachment: Attachment | null;
  /**
   * The message it answers, as the composer quoted it (shown until the server's copy replaces
   * it); absent in entries stored before replies existed.
   */
  reply_to?: ReplySummary | null;
  created_at: string;
  /** Queue order: entries go out oldest position first. */
  position: number;
}

export interface OutboxStorage {
  /** The sender's entries, in queue order. */
  load(senderId: number): Promise<OutboxEntry[]>;
  put(entry: OutboxEntry): Promise<void>;
  remove(entry: Pick<OutboxEntry, 'sender_id' | 'client_id'>): Promise<void>;
}

const keyOf = (entry: Pick<OutboxEntry, 'sender_id' | 'client_id'>) => [entry.sender_id, entry.client_id];
const byPosition = (a: OutboxEntry, b: OutboxEntry) => a.position - b.position;

export function createMemoryOutboxStorage(): OutboxStorage {
  const entries = new Map<string, OutboxEntry>();
  const key = (entry: Pick<OutboxEntry, 'sender_id' | 'client_id'>) => keyOf(entry).join(':');
  return {
    load: async (senderId) => [...entries.values()].filter((entry) => entry.sender_id === senderId).sort(byPosition),
    put: async (entry) => void entries.set(key(entry), { ...entry }),
    remove: async (entry) => void entries.delete(key(entry)),
  };
}

export function createIndexedDbOutboxStorage(factory: IDBFactory = indexedDB): OutboxStorage {
  const db = openParleyDb(factory);
  return {
    async load(senderId) {
      const entries = await db.run(OUTBOX_STORE, 'readonly', (store) => store.index('sender_id').getAll(senderId));
      return (entries as OutboxEntry[]).sort(byPosition);
    },
    put: async (entry) => void (await db.run(OUTBOX_STORE, 'readwrite', (store) => store.put(entry))),
    remove: async (entry) => void (await db.run(OUTBOX_STORE, 'readwrite', (store) => store.delete(keyOf(entry)))),
  };
}

/** `stored` with this tab's mirror in front (outbox-mirror.ts): what is written is kept there until it is stored. */
export function withTabMirror(stored: OutboxStorage): OutboxStorage {
  return {
    async load(senderId) {
      const entries = await stored.load(senderId);
      const known = new Set(entries.map((entry) => entry.client_id));
      const mirrored = readMirror<OutboxEntry>(senderId);
      const missing = mirrored.filter((entry) => !known.has(entry.client_id));
      for (const entry of missing) {
        // Stored now; the mirror stays if that fails, and serves again next time.
        await stored.put(entry).then(() => clearMirror(entry), () => undefined);
      }
      for (const entry of mirrored) if (known.has(entry.client_id)) clearMirror(entry);
      return [...entries, ...missing].sort(byPosition);
    },
    async put(entry) {
      writeMirror(entry);
      await stored.put(entry);
      clearMirror(entry);
    },
    async remove(entry) {
      clearMirror(entry);
      await stored.remove(entry);
    },
  };
}

/**
 * IndexedDB where there is one, with this tab's synchronous copy of each entry until its write
 * commits (outbox-mirror.ts); memory (lost on reload, but working) where there is not.
 */
export function createOutboxStorage(): OutboxStorage {
  return typeof indexedDB === 'undefined' ? createMemoryOutboxStorage() : withTabMirror(createIndexedDbOutboxStorage());
}
