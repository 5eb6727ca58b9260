// What a start without a network can show of the signed-in user: who they are (to find their
// unsent messages) and the names of the people they talk to (to say whom those messages are for).
// Kept in IndexedDB (localStorage holds only `token` and `locale`: docs/CLIENT-RULES.md), tied to
// the stored token by its SHA-256, so another session's token never reads it, and deleted at
// sign-out. It is not the guard's "current user": the main area stays closed until accounts/info
// answers.
import { OFFLINE_STORE, openParleyDb, type ParleyDb } from '@/lib/storage/parley-db';

/** Most names kept: the first pages of the conversation list, not everyone ever met. */
export const OFFLINE_NAMES_MAX = 200;

export interface OfflineSnapshot {
  userId: number;
  /** Display names by user id; someone missing is shown as an unknown user. */
  names: Record<number, string>;
}

interface SnapshotRow {
  key: 'current';
  token_digest: string;
  user_id: number;
  names: Record<number, string>;
}

export interface OfflineSnapshotStorage {
  save(token: string, snapshot: OfflineSnapshot): Promise<void>;
  /** The snapshot written under this token, or null (none, or another session's). */
  load(token: string): Promise<OfflineSnapshot | null>;
  clear(): Promise<void>;
}

async function digest(token: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function createOfflineSnapshotStorage(factory: IDBFactory = indexedDB): OfflineSnapshotStorage {
  const db: ParleyDb = openParleyDb(factory);
  return {
    async save(token, { userId, names }) {
      const row: SnapshotRow = { key: 'current', token_digest: await digest(token), user_id: userId, names };
      await db.run(OFFLINE_STORE, 'readwrite', (store) => store.put(row));
    },
    async load(token) {
      const row = (await db.run(OFFLINE_STORE, 'readonly', (store) => store.get('current'))) as SnapshotRow | undefined;
      if (!row || row.token_digest !== (await digest(token))) return null;
      return { userId: row.user_id, names: row.names };
    },
    clear: async () => void (await db.run(OFFLINE_STORE, 'readwrite', (store) => store.delete('current'))),
  };
}

let shared: OfflineSnapshotStorage | null = null;

/** The app's snapshot storage; null where the browser has no IndexedDB or no Web Crypto. */
export function appOfflineSnapshots(): OfflineSnapshotStorage | null {
  if (typeof indexedDB === 'undefined' || typeof crypto === 'undefined' || !crypto.subtle) return null;
  return (shared ??= createOfflineSnapshotStorage());
}
