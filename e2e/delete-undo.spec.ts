import { test, expect } from './fixtures';
import { ChatPage } from './pages/chat-page';

test.describe.configure({ timeout: 180_000 });

// "Delete for me" with Undo (docs/DECISIONS.md, "Delete for me, with Undo"): gone at once, back
// with Undo, sent once the time is up; a tab closed during the time still deletes it.
test('delete for me: gone at once with an Undo that restores it; sent when the time is up; a closed tab keeps the deletion', async ({ alice, bob }) => {
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  for (const text of ['one to keep', 'one to delete', 'one deleted as the tab closes']) await alice.chat.send(text);
  await bob.chat.openConversation(alice.person.name);
  await expect(bob.chat.message(alice.person.name, 'one deleted as the tab closes')).toBeVisible();
  const thread = bob.chat.thread(alice.person.name);

  // Undo (the focus is on it: the message and its menu left the screen) within its 5 s: back,
  // and nothing was sent (a reload would otherwise send what is pending, at once).
  await bob.chat.messageAction(alice.person.name, 'one to delete', 'Delete for me');
  const undo = bob.page.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeFocused();
  await bob.page.keyboard.press('Enter');
  await expect(bob.chat.message(alice.person.name, 'one to delete')).toBeVisible();
  await expect(undo).toBeHidden();
  await bob.page.reload();
  await bob.chat.openConversation(alice.person.name);
  await expect(bob.chat.message(alice.person.name, 'one to delete')).toBeVisible();

  // Again, and this time the Undo's time runs out: the deletion reaches bob's other tab, not alice.
  const bobElsewhere = new ChatPage(await bob.context.newPage());
  await bobElsewhere.page.goto('/main');
  await bobElsewhere.openConversation(alice.person.name);
  await expect(bobElsewhere.message(alice.person.name, 'one to delete')).toBeVisible();
  // Gone at once, and sent once the time is up (the Undo goes then).
  await bob.chat.messageAction(alice.person.name, 'one to delete', 'Delete for me');
  await expect(thread.getByText('one to delete')).toHaveCount(0);
  await expect(undo).toBeHidden({ timeout: 15_000 });
  await expect(bobElsewhere.thread(alice.person.name).getByText('one to delete')).toHaveCount(0);
  await expect(alice.chat.message(bob.person.name, 'one to delete')).toBeVisible();

  // Deleted, then the tab closed within the Undo's time: still deleted when bob comes back.
  await bobElsewhere.messageAction(alice.person.name, 'one deleted as the tab closes', 'Delete for me');
  await expect(bobElsewhere.thread(alice.person.name).getByText('one deleted as the tab closes')).toHaveCount(0);
  await bobElsewhere.page.close();
  await bob.page.reload();
  await bob.chat.openConversation(alice.person.name);
  await expect(bob.chat.message(alice.person.name, 'one to keep')).toBeVisible();
  await expect(thread.getByText('one deleted as the tab closes')).toHaveCount(0);
  await expect(alice.chat.message(bob.person.name, 'one deleted as the tab closes')).toBeVisible();
});
