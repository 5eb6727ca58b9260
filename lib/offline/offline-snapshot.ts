// What a start without a network can show of the signed-in user: who they are (to find their
// unsent messages), their conversation list as last shown, and the last messages of the
// conversations they opened most recently. Kept in IndexedDB (localStorage holds only `token` and
// `locale`: docs/CLIENT-RULES.md), every row tied to the stored token by its SHA-256, so another
// session's token never reads it, and deleted at sign-out. It is not the guard's "current user":
// the main area stays closed until accounts/info answers, and the server's answers replace all of
// it then.
import type { Conversation, MessagePayload } from '@/lib/contract';
import { OFFLINE_STORE, openParleyDb, type ParleyDb } from '@/lib/storage/parley-db';

/** Most names kept: the first pages of the conversation list, not everyone ever met. */
export const OFFLINE_NAMES_MAX = 200;
/** Conversation rows kept: a screen or two of the list. */
export const OFFLINE_CONVERSATIONS_MAX = 50;
/** Conversations whose messages are kept: the ones opened most recently. */
export const OFFLINE_THREADS_MAX = 10;
/** Messages kept of each: the newest, a screen or two. */
export const OFFLINE_MESSAGES_MAX = 50;

export interface OfflineSnapshot {
  userId: number;
  /** Display names by user id; someone missing is shown as an unknown user. */
  names: Record<number, string>;
  /** The conversation list's first rows, newest first, as last shown. */
  conversations: Conversation[];
  /** The people whose conversations were opened most recently, most recent first: their threads are kept. */
  recent: number[];
  /** When it was written (ISO 8601): what is shown from it may be out of date since. */
  savedAt: string;
}

/** A conversation's newest stored messages, oldest first, as last shown. */
export interface OfflineThread {
  peerId: number;
  messages: MessagePayload[];
  savedAt: string;
}

interface SnapshotRow {
  key: 'current';
  token_digest: string;
  user_id: number;
  names: Record<number, string>;
  conversations?: Conversation[];
  recent?: number[];
  saved_at?: string;
}

interface ThreadRow {
  key: `thread:${number}`;
  token_digest: string;
  peer_id: number;
  messages: MessagePayload[];
  saved_at: string;
}

export interface OfflineSnapshotStorage {
  save(token: string, snapshot: OfflineSnapshot): Promise<void>;
  /** The snapshot written under this token, or null (none, or another session's). */
  load(token: string): Promise<OfflineSnapshot | null>;
  saveThread(token: string, thread: OfflineThread): Promise<void>;
  /** The thread kept under this token, or null. */
  loadThread(token: string, peerId: number): Promise<OfflineThread | null>;
  /** A conversation no longer among the recent ones: its messages go. */
  deleteThread(peerId: number): Promise<void>;
  /** Everything (sign-out). */
  clear(): Promise<void>;
}

async function digest(token: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const threadKey = (peerId: number): ThreadRow['key'] => `thread:${peerId}`;

export function createOfflineSnapshotStorage(factory: IDBFactory = indexedDB): OfflineSnapshotStorage {
  const db: ParleyDb = openParleyDb(factory);
  const get = (key: string) => db.run(OFFLINE_STORE, 'readonly', (store) => store.get(key));
  return {
    async save(token, { userId, names, conversations, recent, savedAt }) {
      const row: SnapshotRow = { key: 'current', token_digest: await digest(token), user_id: userId, names, conversations, recent, saved_at: savedAt };
      await db.run(OFFLINE_STORE, 'readwrite', (store) => store.put(row));
    },
    async load(token) {
      const row = (await get('current')) as SnapshotRow | undefined;
      if (!row || row.token_digest !== (await digest(token))) return null;
      // A row written before conversations were kept has only the names.
      return { userId: row.user_id, names: row.names, conversations: row.conversations ?? [], recent: row.recent ?? [], savedAt: row.saved_at ?? '' };
    },
    async saveThread(token, { peerId, messages, savedAt }) {
      const row: ThreadRow = { key: threadKey(peerId), token_digest: await digest(token), peer_id: peerId, messages, saved_at: savedAt };
      await db.run(OFFLINE_STORE, 'readwrite', (store) => store.put(row));
    },
    async loadThread(token, peerId) {
      const row = (await get(threadKey(peerId))) as ThreadRow | undefined;
      if (!row || row.token_digest !== (await digest(token))) return null;
      return { peerId: row.peer_id, messages: row.messages, savedAt: row.saved_at };
    },
    deleteThread: async (peerId) => void (await db.run(OFFLINE_STORE, 'readwrite', (store) => store.delete(threadKey(peerId)))),
    clear: async () => void (await db.run(OFFLINE_STORE, 'readwrite', (store) => store.clear())),
  };
}

let shared: OfflineSnapshotStorage | null = null;

/** The app's snapshot storage; null where the browser has no IndexedDB or no Web Crypto. */
export function appOfflineSnapshots(): OfflineSnapshotStorage | null {
  if (typeof indexedDB === 'undefined' || typeof crypto === 'undefined' || !crypto.subtle) return null;
  return (shared ??= createOfflineSnapshotStorage());
}
