import { test, expect, newPerson, signInNewContext } from './fixtures';
import { ChatPage } from './pages/chat-page';

test('two people find each other, follow, and talk live across tabs', async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  const aliceName = newPerson('Alice');
  const bobName = newPerson('Bob');
  const alice = new ChatPage((await signInNewContext(browser, aliceName)).page);
  const bobSession = await signInNewContext(browser, bobName);
  const bob = new ChatPage(bobSession.page);
  const bobSecondTab = new ChatPage(await bobSession.context.newPage());
  await bobSecondTab.page.goto('/main');
  await expect(bobSecondTab.unreadCount).toHaveText('0');

  // Alice finds Bob and follows him; Bob sees that she follows him.
  await alice.search(bobName.name);
  await alice.searchResults.getByRole('button', { name: `Follow ${bobName.name}` }).click();
  await expect(alice.searchResults.getByRole('button', { name: `Unfollow ${bobName.name}` })).toBeVisible();
  await bob.search(aliceName.name);
  await expect(bob.searchResults.getByText('Follows you')).toBeVisible();
  await bob.searchBox.fill('');

  // Alice writes; Bob's unread count and tab title rise live, in both his tabs.
  await alice.openFromSearch(bobName.name);
  await alice.send('Hello Bob');
  const aliceThread = alice.thread(bobName.name);
  await expect(aliceThread.getByText('Hello Bob')).toBeVisible();
  await expect(aliceThread.getByText('Sent', { exact: true })).toBeVisible();
  for (const tab of [bob, bobSecondTab]) {
    await expect(tab.unreadCount).toHaveText('1');
    await expect(tab.page).toHaveTitle(/^\(1\) /);
  }

  // Bob opens the conversation: the count returns to 0 in both tabs.
  await bob.openConversation(aliceName.name);
  await expect(bob.thread(aliceName.name).getByText('Hello Bob')).toBeVisible();
  for (const tab of [bob, bobSecondTab]) {
    await expect(tab.unreadCount).toHaveText('0');
    await expect(tab.page).not.toHaveTitle(/^\(\d+\) /);
  }

  // Bob replies; Alice, looking at the conversation, sees it at once and it is read at once.
  await bob.send('Hi Alice');
  await expect(aliceThread.getByText('Hi Alice')).toBeVisible();
  await expect(alice.unreadCount).toHaveText('0');

  // The counts are the server's: they survive a reload.
  await bobSecondTab.page.reload();
  await expect(bobSecondTab.unreadCount).toHaveText('0');
  await expect(bobSecondTab.conversations.getByText(aliceName.name)).toBeVisible();

  // Screens for reviewers (test artifacts): the conversation at desktop and phone width.
  for (const [name, viewport] of [
    ['main-desktop', { width: 1280, height: 800 }],
    ['main-phone', { width: 390, height: 844 }],
  ] as const) {
    await alice.page.setViewportSize(viewport);
    const path = testInfo.outputPath(`${name}.png`);
    await alice.page.screenshot({ path });
    await testInfo.attach(name, { path, contentType: 'image/png' });
  }
});
