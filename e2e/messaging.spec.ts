import { test, expect } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { SMOKE } from './support/requirements';

test('two people find each other, follow, and talk live across tabs', { tag: SMOKE }, async ({ alice, bob }, testInfo) => {
  test.setTimeout(90_000);
  const bobSecondTab = new ChatPage(await bob.context.newPage());
  await bobSecondTab.page.goto('/main');
  await expect(bobSecondTab.unreadCount).toHaveText('0');

  // Alice finds Bob and follows him; Bob sees that she follows him.
  await alice.chat.search(bob.person.name);
  await alice.chat.searchResults.getByRole('button', { name: `Follow ${bob.person.name}` }).click();
  const unfollow = alice.chat.searchResults.getByRole('button', { name: `Unfollow ${bob.person.name}` });
  await expect(unfollow).toBeVisible();
  // Shown at once; Bob's search asks the server, so only once it has the follow (busy until then).
  await expect(unfollow).toHaveAttribute('aria-busy', 'false');
  await bob.chat.search(alice.person.name);
  await expect(bob.chat.searchResults.getByText('Follows you')).toBeVisible();
  await bob.chat.searchBox.fill('');

  // Alice writes; Bob's unread count and tab title rise live, in both his tabs.
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.send('Hello Bob');
  const aliceThread = alice.chat.thread(bob.person.name);
  await expect(aliceThread.getByText('Hello Bob')).toBeVisible();
  await expect(aliceThread.getByText('Sent', { exact: true })).toBeVisible();
  for (const tab of [bob.chat, bobSecondTab]) {
    await expect(tab.unreadCount).toHaveText('1');
    await expect(tab.page).toHaveTitle(/^\(1\) /);
  }

  // Bob opens the conversation: the count returns to 0 in both tabs.
  await bob.chat.openConversation(alice.person.name);
  await expect(bob.chat.thread(alice.person.name).getByText('Hello Bob')).toBeVisible();
  for (const tab of [bob.chat, bobSecondTab]) {
    await expect(tab.unreadCount).toHaveText('0');
    await expect(tab.page).not.toHaveTitle(/^\(\d+\) /);
  }

  // Bob replies; Alice, looking at the conversation, sees it at once and it is read at once.
  await bob.chat.send('Hi Alice');
  await expect(aliceThread.getByText('Hi Alice')).toBeVisible();
  await expect(alice.chat.unreadCount).toHaveText('0');

  // The counts are the server's: they survive a reload.
  await bobSecondTab.page.reload();
  await expect(bobSecondTab.unreadCount).toHaveText('0');
  await expect(bobSecondTab.conversations.getByText(alice.person.name)).toBeVisible();

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
