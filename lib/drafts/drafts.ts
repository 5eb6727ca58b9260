// What the user has typed and not sent, per conversation and per signed-in user, kept in
// IndexedDB until it is sent or cleared: switching conversations or reloading loses nothing.
// The last keys are also mirrored synchronously in this tab (draft-mirror.ts), since the
// IndexedDB write that follows them may not finish before a reload; reading a draft takes the
// newer of the two. Memory where IndexedDB is missing (it then lasts as long as the page).
import { DRAFTS_STORE, openParleyDb } from '@/lib/storage/parley-db';
import { clearMirror, readMirror, writeMirror } from './draft-mirror';

export interface StoredDraft {
  text: string;
  /** When it was typed (ms since the epoch). */
  at: number;
}

export interface DraftStorage {
  load(userId: number, peerId: number): Promise<StoredDraft | null>;
  /** Stores the text typed at `at`; an empty (or blank) one removes the draft. */
  save(userId: number, peerId: number, text: string, at?: number): Promise<void>;
}

interface DraftRow {
  user_id: number;
  peer_id: number;
  text: string;
  updated_at: string;
}

export function createMemoryDraftStorage(): DraftStorage {
  const drafts = new Map<string, StoredDraft>();
  const key = (userId: number, peerId: number) => `${userId}:${peerId}`;
  return {
    load: async (userId, peerId) => drafts.get(key(userId, peerId)) ?? null,
    save: async (userId, peerId, text, at = Date.now()) => {
      if (text.trim() === '') drafts.delete(key(userId, peerId));
      else drafts.set(key(userId, peerId), { text, at });
    },
  };
}

export function createIndexedDbDraftStorage(factory: IDBFactory = indexedDB): DraftStorage {
  const db = openParleyDb(factory);
  return {
    async load(userId, peerId) {
      const row = (await db.run(DRAFTS_STORE, 'readonly', (store) => store.get([userId, peerId]))) as DraftRow | undefined;
      return row ? { text: row.text, at: Date.parse(row.updated_at) || 0 } : null;
    },
    async save(userId, peerId, text, at = Date.now()) {
      if (text.trim() === '') {
        await db.run(DRAFTS_STORE, 'readwrite', (store) => store.delete([userId, peerId]));
        return;
      }
      const row: DraftRow = { user_id: userId, peer_id: peerId, text, updated_at: new Date(at).toISOString() };
      await db.run(DRAFTS_STORE, 'readwrite', (store) => store.put(row));
    },
  };
}

let shared: DraftStorage | null = null;

/** The app's drafts, opened on first use. */
export function appDrafts(): DraftStorage {
  return (shared ??= typeof indexedDB === 'undefined' ? createMemoryDraftStorage() : createIndexedDbDraftStorage());
}

let lastTime = 0;

/** A keystroke's time: always after the previous one's, so the newer of two copies is never a tie. */
function typingTime(): number {
  lastTime = Math.max(lastTime + 1, Date.now());
  return lastTime;
}

/**
 * The text as just typed ('' once emptied or sent), kept in this tab at once: a reload or a
 * crashed tab a moment later finds it. Returns its time, for storeDraft.
 */
export function keepTyped(userId: number, peerId: number, text: string): number {
  const at = typingTime();
  writeMirror(userId, peerId, { text, at });
  return at;
}

/** Stores what was typed at `at` in IndexedDB; once it is there, this tab's mirror of it goes. */
export async function storeDraft(userId: number, peerId: number, text: string, at: number, storage: DraftStorage = appDrafts()): Promise<void> {
  await storage.save(userId, peerId, text, at);
  clearMirror(userId, peerId, at);
}

/**
 * The draft to show: the newer of the stored one and this tab's mirror (whose last write may not
 * have reached IndexedDB). A newer mirror is stored now. null: no draft (or an emptied one).
 */
export async function readDraft(userId: number, peerId: number, storage: DraftStorage = appDrafts()): Promise<StoredDraft | null> {
  const stored = await storage.load(userId, peerId);
  const mirrored = readMirror(userId, peerId);
  if (mirrored && mirrored.at > (stored?.at ?? -1)) {
    // Not stored: the mirror stays, and wins again next time.
    await storeDraft(userId, peerId, mirrored.text, mirrored.at, storage).catch((error: unknown) => console.error('Saving the draft failed', error));
    return mirrored.text.trim() === '' ? null : mirrored;
  }
  return stored;
}
