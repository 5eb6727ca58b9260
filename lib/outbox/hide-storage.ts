// "Delete for me" waits a few seconds for an Undo before it is sent (lib/realtime/delayed-hides.ts).
// Until the server has it, the intent is kept here: a tab closed or reloaded in those seconds, or
// before the request got through, still deletes the message, from the next start of the app.
import { HIDES_STORE, openParleyDb } from '@/lib/storage/parley-db';

/** A message the user deleted for themselves, not acknowledged by the server yet. */
interface StoredHide {
  user_id: number;
  message_id: number;
  /** The other person of the conversation (whose thread it leaves). */
  peer_id: number;
}

export interface HideStorage {
  load(userId: number): Promise<StoredHide[]>;
  put(hide: StoredHide): Promise<void>;
  remove(userId: number, messageId: number): Promise<void>;
}

export function createMemoryHideStorage(): HideStorage {
  const hides = new Map<string, StoredHide>();
  const key = (userId: number, messageId: number) => `${userId}:${messageId}`;
  return {
    load: async (userId) => [...hides.values()].filter((hide) => hide.user_id === userId),
    put: async (hide) => void hides.set(key(hide.user_id, hide.message_id), { ...hide }),
    remove: async (userId, messageId) => void hides.delete(key(userId, messageId)),
  };
}

function createIndexedDbHideStorage(factory: IDBFactory = indexedDB): HideStorage {
  const db = openParleyDb(factory);
  return {
    load: async (userId) => (await db.run(HIDES_STORE, 'readonly', (store) => store.index('user_id').getAll(userId))) as StoredHide[],
    put: async (hide) => void (await db.run(HIDES_STORE, 'readwrite', (store) => store.put(hide))),
    remove: async (userId, messageId) => void (await db.run(HIDES_STORE, 'readwrite', (store) => store.delete([userId, messageId]))),
  };
}

/** IndexedDB where there is one; memory (lost on reload, but working) where there is not. */
export function createHideStorage(): HideStorage {
  return typeof indexedDB === 'undefined' ? createMemoryHideStorage() : createIndexedDbHideStorage();
}
