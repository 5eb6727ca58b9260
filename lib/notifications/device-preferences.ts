// What this browser remembers for each person signed in here: whether they switched desktop
// notifications off on it, and which prompts they dismissed (notifications, adding a name). In
// IndexedDB, since localStorage holds only `token` and `locale` (docs/CLIENT-RULES.md); memory
// without it. Each writer saves only what it changes, so the notifications and the name prompt
// never undo each other's choices.

export interface DevicePreferences {
  /** Desktop notifications switched off on this browser (permission may still be granted). */
  off: boolean;
  /** The "turn on notifications" prompt was dismissed here. */
  promptDismissed: boolean;
  /** The "add your name" prompt was dismissed here. */
  namePromptDismissed: boolean;
}

export interface DevicePreferenceStorage {
  load(userId: number): Promise<DevicePreferences>;
  /** Changes these preferences of the person's, keeping the others as stored. */
  save(userId: number, changes: Partial<DevicePreferences>): Promise<void>;
}

const DB_NAME = 'parley-device';
const STORE = 'notification-preferences';
export const DEFAULT_DEVICE_PREFERENCES: DevicePreferences = { off: false, promptDismissed: false, namePromptDismissed: false };
const DEFAULTS = DEFAULT_DEVICE_PREFERENCES;

export function createMemoryPreferenceStorage(): DevicePreferenceStorage {
  const saved = new Map<number, DevicePreferences>();
  return {
    load: async (userId) => ({ ...DEFAULTS, ...saved.get(userId) }),
    save: async (userId, changes) => void saved.set(userId, { ...DEFAULTS, ...saved.get(userId), ...changes }),
  };
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

export function createIndexedDbPreferenceStorage(factory: IDBFactory = indexedDB): DevicePreferenceStorage {
  let opened: Promise<IDBDatabase> | null = null;
  const open = () =>
    (opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(DB_NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => {
        opened = null;
        reject(request.error);
      };
    }));
  return {
    async load(userId) {
      const db = await open();
      const stored = (await done(db.transaction(STORE, 'readonly').objectStore(STORE).get(userId))) as Partial<DevicePreferences> | undefined;
      return { ...DEFAULTS, ...stored };
    },
    async save(userId, changes) {
      const db = await open();
      // Read and written in one transaction (a change made meanwhile elsewhere is not lost), and
      // resolved once committed, so a reload right after cannot lose it.
      const transaction = db.transaction(STORE, 'readwrite');
      const committed = new Promise<void>((resolve, reject) => {
        transaction.oncomplete = () => resolve();
        transaction.onabort = () => reject(transaction.error);
      });
      const store = transaction.objectStore(STORE);
      const stored = (await done(store.get(userId))) as Partial<DevicePreferences> | undefined;
      store.put({ ...DEFAULTS, ...stored, ...changes }, userId);
      await committed;
    },
  };
}

function createDevicePreferenceStorage(): DevicePreferenceStorage {
  return typeof indexedDB === 'undefined' ? createMemoryPreferenceStorage() : createIndexedDbPreferenceStorage();
}

let shared: DevicePreferenceStorage | null = null;

/** The app's device preferences, opened on first use. */
export function appDevicePreferences(): DevicePreferenceStorage {
  return (shared ??= createDevicePreferenceStorage());
}
