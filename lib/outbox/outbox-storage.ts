// Where unacknowledged messages wait, so that a reload or a crash loses none of them: IndexedDB
// when the browser has it (localStorage holds only `token` and `locale`: docs/CLIENT-RULES.md),
// memory otherwise.
import type { Attachment } from '@/lib/contract';

/** A message the server has not acknowledged yet. */
export interface OutboxEntry {
  client_id: string;
  sender_id: number;
  recipient_id: number;
  text: string;
  attachment: Attachment | null;
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

const DB_NAME = 'parley';
const STORE = 'outbox';

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

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export function createIndexedDbOutboxStorage(factory: IDBFactory = indexedDB): OutboxStorage {
  let opened: Promise<IDBDatabase> | null = null;
  const open = () =>
    (opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open(DB_NAME, 1);
      req.onupgradeneeded = () => {
        const store = req.result.createObjectStore(STORE, { keyPath: ['sender_id', 'client_id'] });
        store.createIndex('sender_id', 'sender_id');
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => {
        opened = null;
        reject(req.error);
      };
    }));

  async function run<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    const db = await open();
    const tx = db.transaction(STORE, mode);
    const result = request(action(tx.objectStore(STORE)));
    // Resolved only once committed: an acknowledged write is on disk before the send goes out.
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
    return result;
  }

  return {
    async load(senderId) {
      const entries = await run('readonly', (store) => store.index('sender_id').getAll(senderId));
      return (entries as OutboxEntry[]).sort(byPosition);
    },
    put: async (entry) => void (await run('readwrite', (store) => store.put(entry))),
    remove: async (entry) => void (await run('readwrite', (store) => store.delete(keyOf(entry)))),
  };
}

/** IndexedDB where there is one; memory (lost on reload, but working) where there is not. */
export function createOutboxStorage(): OutboxStorage {
  return typeof indexedDB === 'undefined' ? createMemoryOutboxStorage() : createIndexedDbOutboxStorage();
}
