import { test, expect, newPerson, signInNewContext } from './fixtures';
import { ChatPage } from './pages/chat-page';

// The offline grace (a reload is not "last seen") plus the time to notice: server/realtime/presence.
const OFFLINE_MS = 20_000;

test('typing shows and clears for the other person; presence goes online → offline → last seen', async ({ browser }) => {
  test.setTimeout(120_000);
  const aliceName = newPerson('Alice');
  const bobName = newPerson('Bob');
  const alice = new ChatPage((await signInNewContext(browser, aliceName)).page);
  const bobSession = await signInNewContext(browser, bobName);
  const bob = new ChatPage(bobSession.page);

  // They write to each other: having written, each lets the other see their presence.
  await alice.search(bobName.name);
  await alice.openFromSearch(bobName.name);
  await alice.send('Hi Bob');
  await bob.openConversation(aliceName.name);
  await bob.send('Hi Alice');
  const aliceThread = alice.thread(bobName.name);
  await expect(aliceThread.getByText('Hi Alice')).toBeVisible();

  // Bob is online: in Alice's header, and as a dot (named "Online") on his row.
  await expect(aliceThread.getByText('Online', { exact: true })).toBeVisible();
  await expect(alice.conversationRow(bobName.name)).toContainText('Online');

  // Bob types: Alice sees it in the open conversation and on his row; it clears when he empties the box.
  await bob.composer.pressSequentially('Are you');
  const typing = aliceThread.getByRole('status').filter({ hasText: `${bobName.name} is typing…` });
  await expect(typing).toBeVisible();
  await expect(alice.conversationRow(bobName.name)).toContainText('typing…');
  await bob.composer.fill('');
  await expect(typing).toHaveCount(0);
  await expect(alice.conversationRow(bobName.name)).not.toContainText('typing…');

  // And when he sends: the indicator goes, the message comes, nothing about typing counts as unread.
  await bob.composer.pressSequentially('free at 5?');
  await expect(typing).toBeVisible();
  await bob.composer.press('Enter');
  await expect(aliceThread.getByText('free at 5?')).toBeVisible();
  await expect(typing).toHaveCount(0);
  await expect(alice.unreadCount).toHaveText('0');

  // Bob starts typing and closes his page mid-sentence: the indicator expires by itself, and Bob
  // goes from online to "last seen".
  await bob.composer.pressSequentially('one more');
  await expect(typing).toBeVisible();
  await bobSession.context.close();
  await expect(typing).toHaveCount(0, { timeout: OFFLINE_MS });
  await expect(aliceThread.getByText(/^Last seen (just now|1 min\. ago)$/)).toBeVisible({ timeout: OFFLINE_MS });
  await expect(aliceThread.getByText('Online', { exact: true })).toHaveCount(0);
  await expect(alice.conversationRow(bobName.name)).not.toContainText('Online');
});
