import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createIndexedDbPreferenceStorage, createMemoryPreferenceStorage, DEFAULT_DEVICE_PREFERENCES } from './device-preferences';

describe('device preferences', () => {
  for (const [name, make] of [
    ['IndexedDB', () => createIndexedDbPreferenceStorage(new IDBFactory())],
    ['memory', () => createMemoryPreferenceStorage()],
  ] as const) {
    it(`${name}: each writer changes only its own preference, per person`, async () => {
      const storage = make();
      expect(await storage.load(7)).toEqual(DEFAULT_DEVICE_PREFERENCES);
      await storage.save(7, { promptDismissed: true });
      await storage.save(7, { namePromptDismissed: true });
      await storage.save(8, { off: true });
      expect(await storage.load(7)).toEqual({ off: false, promptDismissed: true, namePromptDismissed: true });
      expect(await storage.load(8)).toEqual({ off: true, promptDismissed: false, namePromptDismissed: false });
    });
  }
});
