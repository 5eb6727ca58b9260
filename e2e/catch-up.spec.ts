import { test, expect } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { expectNoA11yViolations } from './support/axe';
import { goOffline } from './support/network';

// Catch-up by conversation (socket protocol 2): what a tab learns of a conversation it did not
// know, and of a receipt, which moves no seq of its conversation.

test('a conversation begun on another tab appears in this one, in the thread it has open with that person', async ({ alice, bob }, testInfo) => {
  test.setTimeout(90_000);
  // This tab opens a conversation with Bob that does not exist yet: an empty thread.
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  const thread = alice.chat.thread(bob.person.name);
  await expect(thread.getByText('First from the other tab')).toHaveCount(0);

  // Another tab of Alice's begins it.
  const otherTab = new ChatPage(await alice.context.newPage());
  await otherTab.page.goto('/main');
  await otherTab.search(bob.person.name);
  await otherTab.openFromSearch(bob.person.name);
  await otherTab.send('First from the other tab');
  await expect(otherTab.thread(bob.person.name).getByText('Sent', { exact: true })).toBeVisible();

  // The first tab learns the conversation, shows the message in its open thread and the row in its list.
  await expect(thread.getByText('First from the other tab')).toBeVisible();
  await expect(alice.chat.conversationRow(bob.person.name)).toBeVisible();
  // And Bob's reply reaches it there, once.
  await bob.chat.openConversation(alice.person.name);
  await bob.chat.send('Reply to both tabs');
  await expect(thread.getByText('Reply to both tabs')).toHaveCount(1);
  await expect(thread.getByText('First from the other tab')).toHaveCount(1);
  await expectNoA11yViolations(alice.page, testInfo, 'conversation begun on another tab');
});

test('a read made while the sender was offline shows as "Seen" once they are back', async ({ alice, bob }) => {
  test.setTimeout(90_000);
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.send('Read me while I am away');
  const mine = alice.chat.message(bob.person.name, 'Read me while I am away');
  await expect(mine).toContainText('Sent');

  // Alice loses the network; Bob reads her message meanwhile. The receipt pushed then is lost to her.
  await goOffline(alice.context);
  await bob.chat.openConversation(alice.person.name);
  await expect(bob.chat.thread(alice.person.name).getByText('Read me while I am away')).toBeVisible();
  await expect(bob.chat.unreadCount).toHaveText('0');
  await expect(mine.getByTestId('seen')).toHaveCount(0);

  // Back online: the catch-up of the conversation she holds says where Bob has read to.
  await alice.context.setOffline(false);
  await expect(mine.getByTestId('seen')).toBeVisible({ timeout: 20_000 });
});
