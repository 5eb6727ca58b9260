// What this browser remembers about notifications for each person signed in here: whether they
// switched desktop notifications off on it, and whether they dismissed the prompt. In IndexedDB,
// since localStorage holds only `token` and `locale` (docs/CLIENT-RULES.md); memory without it.

export interface DevicePreferences {
  /** Desktop notifications switched off on this browser (permission may still be granted). */
  off: boolean;
  /** The "turn on notifications" prompt was dismissed here. */
  promptDismissed: boolean;
}

export interface DevicePreferenceStorage {
  load(userId: number): Promise<DevicePreferences>;
  save(userId: number, preferences: DevicePreferences): Promise<void>;
}

const DB_NAME = 'parley-device';
const STORE = 'notification-preferences';
const DEFAULTS: DevicePreferences = { off: false, promptDismissed: false };

export function createMemoryPreferenceStorage(): DevicePreferenceStorage {
  const saved = new Map<number, DevicePreferences>();
  return {
    load: async (userId) => ({ ...DEFAULTS, ...saved.get(userId) }),
    save: async (userId, preferences) => void saved.set(userId, { ...preferences }),
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
    async save(userId, preferences) {
      const db = await open();
      await done(db.transaction(STORE, 'readwrite').objectStore(STORE).put({ ...preferences }, userId));
    },
  };
}

export function createDevicePreferenceStorage(): DevicePreferenceStorage {
  return typeof indexedDB === 'undefined' ? createMemoryPreferenceStorage() : createIndexedDbPreferenceStorage();
}
