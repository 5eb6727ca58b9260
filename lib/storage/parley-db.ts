// The app's one IndexedDB database ("parley"), for what must outlive a reload but may not go in
// localStorage (which holds only `token` and `locale`: docs/CLIENT-RULES.md): unsent messages
// (lib/outbox), deletions for oneself waiting out their Undo (lib/outbox/hide-storage.ts), drafts
// (lib/drafts) and what an offline start shows (lib/offline). Each version adds its stores; none is
// ever dropped.
const DB_NAME = 'parley';
const VERSION = 4;

export const OUTBOX_STORE = 'outbox';
export const HIDES_STORE = 'hides';
export const DRAFTS_STORE = 'drafts';
export const OFFLINE_STORE = 'offline';

function requestResult<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export interface ParleyDb {
  /** Runs one request in its own transaction; resolves once the transaction has committed. */
  run<T>(store: string, mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T>): Promise<T>;
}

export function openParleyDb(factory: IDBFactory = indexedDB): ParleyDb {
  let opened: Promise<IDBDatabase> | null = null;
  const open = () =>
    (opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open(DB_NAME, VERSION);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains(OUTBOX_STORE)) {
          db.createObjectStore(OUTBOX_STORE, { keyPath: ['sender_id', 'client_id'] }).createIndex('sender_id', 'sender_id');
        }
        if (!db.objectStoreNames.contains(DRAFTS_STORE)) db.createObjectStore(DRAFTS_STORE, { keyPath: ['user_id', 'peer_id'] });
        if (!db.objectStoreNames.contains(OFFLINE_STORE)) db.createObjectStore(OFFLINE_STORE, { keyPath: 'key' });
        if (!db.objectStoreNames.contains(HIDES_STORE)) {
          db.createObjectStore(HIDES_STORE, { keyPath: ['user_id', 'message_id'] }).createIndex('user_id', 'user_id');
        }
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => {
        opened = null;
        reject(req.error);
      };
    }));

  return {
    async run(storeName, mode, action) {
      const db = await open();
      const tx = db.transaction(storeName, mode);
      const result = requestResult(action(tx.objectStore(storeName)));
      // Resolved only once committed: an acknowledged write is on disk before anything relies on it.
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
      return result;
    },
  };
}
