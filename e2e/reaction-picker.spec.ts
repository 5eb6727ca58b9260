import { test, expect } from './fixtures';
import { ChatPage } from './pages/chat-page';

test.describe.configure({ timeout: 120_000 });

// The reaction picker is loaded ahead once a conversation is open and the page idle (its code and
// its data, into the IndexedDB it reads), so opening it fetches no data (docs/DECISIONS.md, "The
// reaction picker, loaded ahead"); someone who only looks at the list never downloads it.
test('the reaction picker’s data is loaded once a conversation is open, before the picker is, and opening it fetches none', async ({ alice, bob }) => {
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.send('React to this');

  // A fresh tab of bob's, watched from its first request.
  const tab = new ChatPage(await bob.context.newPage());
  const asked: { method: string; opened: boolean }[] = [];
  let opened = false;
  tab.page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/emoji-data/en') asked.push({ method: request.method(), opened });
  });
  await tab.page.goto('/main');
  await expect(tab.conversationRow(alice.person.name)).toBeVisible();
  // The list's prefetches run at its next two idle moments (lib/realtime/prefetch.ts), registered
  // as it rendered: two idle callbacks of ours, asked for after it, come after them; then the
  // network settles.
  await tab.page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestIdleCallback(() => requestIdleCallback(() => resolve(), { timeout: 5_000 }), { timeout: 5_000 }),
      ),
  );
  await tab.page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);

  await tab.openConversation(alice.person.name);
  // Before anyone asks for the picker: its data (or, once stored, the check of its version), and
  // the data in the picker's own store (emoji-picker-element's database for English).
  await expect.poll(() => asked.length).toBeGreaterThan(0);
  await expect.poll(() => tab.page.evaluate(storedEmojiData), { timeout: 60_000 }).toBe(true);
  opened = true;
  await tab.messageAction(alice.person.name, 'React to this', 'More reactions…');
  const picker = tab.page.getByRole('dialog', { name: 'Choose a reaction' });
  await expect(picker.getByRole('menuitem', { name: /grinning face/i }).first()).toBeVisible();
  expect(asked.filter((request) => request.opened && request.method === 'GET')).toEqual([]);
});

/**
 * Whether the picker's IndexedDB holds its data (it records the data's address once loaded).
 * Opened only once it exists: opening a missing one would create it, empty, under the picker.
 */
async function storedEmojiData(): Promise<boolean> {
  const name = 'emoji-picker-element-en';
  if (!(await indexedDB.databases()).some((database) => database.name === name)) return false;
  return new Promise((resolve) => {
    const open = indexedDB.open(name);
    open.onerror = () => resolve(false);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('keyvalue')) {
        db.close();
        resolve(false);
        return;
      }
      const read = db.transaction('keyvalue').objectStore('keyvalue').get('url');
      read.onsuccess = () => {
        db.close();
        resolve(typeof read.result === 'string');
      };
      read.onerror = () => {
        db.close();
        resolve(false);
      };
    };
  });
}
