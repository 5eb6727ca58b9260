// What the user has typed and not sent, per conversation and per signed-in user, kept in
// IndexedDB until it is sent or cleared: switching conversations or reloading loses nothing.
// Memory where IndexedDB is missing (it then lasts as long as the page).
import { DRAFTS_STORE, openParleyDb } from '@/lib/storage/parley-db';

export interface DraftStorage {
  load(userId: number, peerId: number): Promise<string | null>;
  /** Stores the text; an empty (or blank) one removes the draft. */
  save(userId: number, peerId: number, text: string): Promise<void>;
}

interface DraftRow {
  user_id: number;
  peer_id: number;
  text: string;
  updated_at: string;
}

export function createMemoryDraftStorage(): DraftStorage {
  const drafts = new Map<string, string>();
  const key = (userId: number, peerId: number) => `${userId}:${peerId}`;
  return {
    load: async (userId, peerId) => drafts.get(key(userId, peerId)) ?? null,
    save: async (userId, peerId, text) => {
      if (text.trim() === '') drafts.delete(key(userId, peerId));
      else drafts.set(key(userId, peerId), text);
    },
  };
}

export function createIndexedDbDraftStorage(factory: IDBFactory = indexedDB): DraftStorage {
  const db = openParleyDb(factory);
  return {
    async load(userId, peerId) {
      const row = (await db.run(DRAFTS_STORE, 'readonly', (store) => store.get([userId, peerId]))) as DraftRow | undefined;
      return row?.text ?? null;
    },
    async save(userId, peerId, text) {
      if (text.trim() === '') {
        await db.run(DRAFTS_STORE, 'readwrite', (store) => store.delete([userId, peerId]));
        return;
      }
      const row: DraftRow = { user_id: userId, peer_id: peerId, text, updated_at: new Date().toISOString() };
      await db.run(DRAFTS_STORE, 'readwrite', (store) => store.put(row));
    },
  };
}

let shared: DraftStorage | null = null;

/** The app's drafts, opened on first use. */
export function appDrafts(): DraftStorage {
  return (shared ??= typeof indexedDB === 'undefined' ? createMemoryDraftStorage() : createIndexedDbDraftStorage());
}
