import { test, expect } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { SettingsDialog } from './pages/settings-dialog';
import { goOffline } from './support/network';

// Seen, reactions, edits and deletions: live on both sides, and after a reconnect (the seq
// stream's catch-up; docs/DELIVERY.md, "Changes to messages").
test('seen, reactions, edit, unsend and delete for me reach both people live', async ({ alice, bob }) => {
  test.setTimeout(120_000);
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.send('First words');
  await alice.chat.send('Second words');
  await expect(alice.chat.message(bob.person.name, 'Second words').getByText('Sent', { exact: true })).toBeVisible();

  // Bob reads: Alice sees "Seen" under her latest message, live.
  await bob.chat.openConversation(alice.person.name);
  await expect(bob.chat.message(alice.person.name, 'Second words')).toBeVisible();
  await expect(alice.chat.message(bob.person.name, 'Second words').getByTestId('seen')).toHaveText(/^Seen \d/);

  // Bob reacts from the actions menu: both see it, with who; pressing it again takes it away.
  await bob.chat.messageAction(alice.person.name, 'First words', 'React with 👍');
  const aliceReaction = alice.chat.message(bob.person.name, 'First words').getByRole('button', { name: /^👍 1: .*Press to add or remove yours\.$/ });
  await expect(aliceReaction).toHaveAccessibleName(new RegExp(`^👍 1: ${bob.person.name}\\.`));
  const bobReaction = bob.chat.message(alice.person.name, 'First words').getByRole('button', { name: /^👍 1: You\./ });
  await expect(bobReaction).toHaveAttribute('aria-pressed', 'true');
  await aliceReaction.click(); // Alice adds hers to it
  await expect(bob.chat.message(alice.person.name, 'First words').getByRole('button', { name: /^👍 2: You, / })).toBeVisible();
  await bob.chat.message(alice.person.name, 'First words').getByRole('button', { name: /^👍 2/ }).click();
  await expect(alice.chat.message(bob.person.name, 'First words').getByRole('button', { name: /^👍 1: You\./ })).toBeVisible();

  // Alice edits her last message with the Up arrow in the empty composer; Escape first cancels.
  await alice.chat.composer.focus();
  await alice.chat.composer.press('ArrowUp');
  const editBox = alice.page.getByRole('textbox', { name: 'Edit your message' });
  await expect(editBox).toBeFocused();
  await editBox.press('Escape');
  await expect(editBox).toBeHidden();
  await expect(alice.chat.composer).toBeFocused();
  await alice.chat.composer.press('ArrowUp');
  await editBox.fill('Second words, corrected');
  await editBox.press('Enter');
  await expect(bob.chat.message(alice.person.name, 'Second words, corrected').getByText('edited', { exact: true })).toBeVisible();
  await expect(alice.chat.message(bob.person.name, 'Second words, corrected').getByText('edited', { exact: true })).toBeVisible();
  await expect(bob.chat.conversationRow(alice.person.name)).toContainText('Second words, corrected');

  // Alice unsends her first message: "Message deleted" on both sides, its reaction gone.
  await alice.chat.messageAction(bob.person.name, 'First words', 'Unsend for everyone');
  await alice.page.getByRole('dialog', { name: 'Unsend this message?' }).getByRole('button', { name: 'Unsend for everyone' }).click();
  await expect(bob.chat.thread(alice.person.name).getByText('Message deleted')).toBeVisible();
  await expect(bob.chat.thread(alice.person.name).getByText('First words')).toHaveCount(0);
  await expect(alice.chat.thread(bob.person.name).getByText('Message deleted')).toBeVisible();

  // Bob deletes the other one for himself: gone from his screen (and his other tabs), Alice keeps it.
  const bobSecondTab = new ChatPage(await bob.context.newPage());
  await bobSecondTab.page.goto(`/main`);
  await bobSecondTab.openConversation(alice.person.name);
  await expect(bobSecondTab.message(alice.person.name, 'Second words, corrected')).toBeVisible();
  await bob.chat.messageAction(alice.person.name, 'Second words, corrected', 'Delete for me');
  await expect(bob.chat.thread(alice.person.name).getByText('Second words, corrected')).toHaveCount(0);
  await expect(bobSecondTab.thread(alice.person.name).getByText('Second words, corrected')).toHaveCount(0);
  await expect(alice.chat.message(bob.person.name, 'Second words, corrected')).toBeVisible();
  await bob.page.reload();
  await bob.chat.openConversation(alice.person.name);
  await expect(bob.chat.thread(alice.person.name).getByText('Message deleted')).toBeVisible();
  await expect(bob.chat.thread(alice.person.name).getByText('Second words, corrected')).toHaveCount(0);
});

test('a tab offline while the other person edits, reacts and unsends converges when it reconnects', async ({ alice, bob }) => {
  test.setTimeout(120_000);
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  for (const text of ['one to edit', 'one to react to', 'one to unsend']) await alice.chat.send(text);
  await bob.chat.openConversation(alice.person.name);
  await expect(bob.chat.message(alice.person.name, 'one to unsend')).toBeVisible();

  await goOffline(bob.context);
  await alice.chat.messageAction(bob.person.name, 'one to edit', 'Edit');
  const editBox = alice.page.getByRole('textbox', { name: 'Edit your message' });
  await editBox.fill('one edited offline');
  await editBox.press('Enter');
  await alice.chat.messageAction(bob.person.name, 'one to react to', 'React with 😂');
  await alice.chat.messageAction(bob.person.name, 'one to unsend', 'Unsend for everyone');
  await alice.page.getByRole('dialog', { name: 'Unsend this message?' }).getByRole('button', { name: 'Unsend for everyone' }).click();
  await expect(alice.chat.thread(bob.person.name).getByText('Message deleted')).toBeVisible();
  // Bob's screen has not changed meanwhile.
  await expect(bob.chat.message(alice.person.name, 'one to edit')).toBeVisible();

  await bob.context.setOffline(false);
  const thread = bob.chat.thread(alice.person.name);
  await expect(bob.chat.message(alice.person.name, 'one edited offline').getByText('edited', { exact: true })).toBeVisible();
  await expect(bob.chat.message(alice.person.name, 'one to react to').getByRole('button', { name: /^😂 1: / })).toBeVisible();
  await expect(thread.getByText('Message deleted')).toBeVisible();
  await expect(thread.getByText('one to unsend')).toHaveCount(0);
  await expect(thread.getByText('one to edit', { exact: true })).toHaveCount(0);
});

test('any emoji from the picker, and read receipts turned off on one side hide "Seen" from both', async ({ alice, bob }) => {
  test.setTimeout(120_000);
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.send('Pick an emoji');

  // Bob reacts with an emoji the quick set lacks, found by searching the picker (loaded on demand).
  await bob.chat.openConversation(alice.person.name);
  await bob.chat.messageAction(alice.person.name, 'Pick an emoji', 'More reactions…');
  const picker = bob.page.getByRole('dialog', { name: 'Choose a reaction' });
  await picker.getByRole('combobox').fill('avocado');
  await picker.getByRole('option', { name: /avocado/i }).first().click();
  await expect(picker).toBeHidden();
  await expect(alice.chat.message(bob.person.name, 'Pick an emoji').getByRole('button', { name: /^🥑 1: / })).toBeVisible();
  await expect(alice.chat.message(bob.person.name, 'Pick an emoji').getByTestId('seen')).toBeVisible();

  // Bob turns read receipts off: he reads Alice's next message and she sees no "Seen" under it.
  const settings = new SettingsDialog(bob.page);
  await settings.open('Privacy');
  const receipts = settings.panel.getByRole('checkbox', { name: 'Send read receipts' });
  // The switch moves at once; Alice's next message is read only once the server has the setting.
  await receipts.click();
  await expect(receipts).not.toBeChecked();
  await expect(settings.panel.getByRole('status').filter({ hasText: 'Privacy setting saved.' })).toBeVisible();
  await settings.close();
  await alice.chat.send('Read without a receipt');
  await expect(bob.chat.message(alice.person.name, 'Read without a receipt')).toBeVisible();
  await expect(bob.chat.unreadCount).toHaveText('0');
  await alice.page.reload();
  await alice.chat.openConversation(bob.person.name);
  await expect(alice.chat.message(bob.person.name, 'Read without a receipt').getByText('Sent', { exact: true })).toBeVisible();
  await expect(alice.chat.thread(bob.person.name).getByTestId('seen')).toHaveCount(0);
});
