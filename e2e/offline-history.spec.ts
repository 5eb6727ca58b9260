// A reload with no network opens the app shell from the service worker; until the connection is
// back it shows what this device saw: the conversation list and the last messages of the
// conversations opened last, marked as saved earlier. Back online, the app itself takes over.
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { expectNoA11yViolationsLightAndDark } from './support/axe';
import { goOffline } from './support/network';
import { LOCAL_ONLY } from './support/requirements';
import { workerControls } from './support/service-worker';

/** How many messages of the conversation with `peerId` this browser keeps for an offline start. */
function keptMessages(page: Page, peerId: number): Promise<number> {
  return page.evaluate(
    (peer) =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('parley');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('offline')) return resolve(0);
          const get = db.transaction('offline', 'readonly').objectStore('offline').get(`thread:${peer}`);
          get.onsuccess = () => resolve((get.result as { messages?: unknown[] } | undefined)?.messages?.length ?? 0);
          get.onerror = () => resolve(0);
        };
        open.onerror = () => resolve(0);
      }),
    peerId,
  );
}

test('a reload offline shows the conversations and last messages this device saw; online, the app takes over', { tag: LOCAL_ONLY }, async ({ alice, bob }, testInfo) => {
  // Two people and a service worker's first install: three times the usual time.
  test.slow();
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.send('dinner at eight?');
  await bob.chat.openConversation(alice.person.name);
  await bob.chat.send('yes, see you there');
  const aliceThread = alice.chat.thread(bob.person.name);
  await expect(aliceThread.getByText('yes, see you there')).toBeVisible();
  await workerControls(alice.page);
  // Kept on this device (a second after the thread changed).
  await expect.poll(() => keptMessages(alice.page, bob.person.id)).toBe(2);

  await goOffline(alice.context);
  await alice.page.reload();
  await expect(alice.page.getByText('You are offline. Parley opens as soon as the connection is back')).toBeVisible();
  await expect(alice.page.getByText(/^Below is what this device saved on .+\. It may be out of date until the connection is back\.$/)).toBeVisible();
  const list = alice.page.getByRole('region', { name: 'Your conversations' });
  await expect(list.getByRole('button', { name: new RegExp(`^${bob.person.name}`) })).toBeVisible();
  // The address's conversation, as saved.
  const saved = alice.page.getByRole('region', { name: `Conversation with ${bob.person.name}` });
  await expect(saved.getByRole('listitem')).toHaveCount(2);
  await expect(saved.getByText('dinner at eight?')).toBeVisible();
  await expect(saved.getByText('yes, see you there')).toBeVisible();
  await expectNoA11yViolationsLightAndDark(alice.page, testInfo, 'offline start with history');

  // Meanwhile Bob writes again; back online, Alice's app reads the conversation afresh.
  await bob.chat.send('running a bit late');
  await alice.context.setOffline(false);
  await expect(aliceThread.getByText('running a bit late')).toBeVisible({ timeout: 20_000 });
  await expect(alice.chat.composer).toBeVisible();
  await expect(alice.page.getByRole('region', { name: 'Your conversations' })).toHaveCount(0);
});
