import type { Page } from '@playwright/test';

export async function readStorage(page: Page) {
  return page.evaluate(() => ({
    token: window.localStorage.getItem('token'),
    locale: window.localStorage.getItem('locale'),
  }));
}

/**
 * The texts waiting in this browser's outbox (IndexedDB `parley`, store `outbox`), as stored:
 * what a reload finds. The thread shows a message as waiting as soon as it is written; its
 * storing completes a moment later.
 */
export function storedOutboxTexts(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open('parley');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('outbox')) return resolve([]);
          const all = db.transaction('outbox', 'readonly').objectStore('outbox').getAll();
          all.onsuccess = () => resolve((all.result as { text: string }[]).map((entry) => entry.text));
          all.onerror = () => resolve([]);
        };
        open.onerror = () => resolve([]);
      }),
  );
}
