// Finding people and acting on them: the Message action of a search result (a link to the
// conversation's own address), and a person's card in the conversation header.
import { test, expect } from './fixtures';

test.describe.configure({ timeout: 90_000 });

test('each search result has a visible Message action: a link to the conversation, which it opens', async ({ alice, bob }) => {
  await alice.chat.searchBox.fill(bob.person.name);
  const message = alice.chat.messageLink(bob.person.name);
  await expect(message).toBeVisible();
  await expect(message).toHaveText('Message');
  await expect(message).toHaveAttribute('href', `/main/${bob.person.id}`);

  await message.click();
  await expect(alice.page).toHaveURL(new RegExp(`/main/${bob.person.id}$`));
  await expect(alice.chat.thread(bob.person.name)).toBeVisible();
  // The search is done with: the list is back, the conversation selected in it.
  await expect(alice.chat.searchBox).toHaveValue('');
  await alice.chat.send('Found you');
  await expect(bob.chat.unreadCount).toHaveText('1');

  // Its address is real: opened on its own, it shows the same conversation.
  const tab = await alice.context.newPage();
  await tab.goto(`/main/${bob.person.id}`);
  await expect(tab.getByRole('region', { name: `Conversation with ${bob.person.name}` }).getByText('Found you')).toBeVisible();
  await tab.close();
});

test('with the card open, the conversation header offers one Follow button, not two', async ({ alice, bob }) => {
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  const page = alice.page;
  await page.getByRole('button', { name: `Follow ${bob.person.name}`, exact: true }).click();
  const unfollow = page.getByRole('button', { name: `Unfollow ${bob.person.name}` });
  await expect(unfollow).toHaveCount(1);
  // Shown at once; the card reads the profile from the server, so it opens once the follow is there.
  await expect(unfollow).toHaveAttribute('aria-busy', 'false');

  const header = alice.chat.thread(bob.person.name).getByRole('heading', { name: bob.person.name });
  await header.getByRole('button').click();
  const card = page.getByRole('region', { name: 'View profile' });
  await expect(card).toBeVisible();
  await expect(card.getByText('1 follower')).toBeVisible();
  await expect(unfollow).toHaveCount(1);
  await expect(card.getByRole('button', { name: `Unfollow ${bob.person.name}` })).toBeVisible();

  // Unfollowed from the card: the count follows, and the one button says Follow again.
  await unfollow.click();
  await expect(card.getByText('0 followers')).toBeVisible();
  await expect(page.getByRole('button', { name: `Follow ${bob.person.name}`, exact: true })).toHaveCount(1);
  await header.getByRole('button').click();
  await expect(card).toBeHidden();
  await expect(page.getByRole('button', { name: `Follow ${bob.person.name}`, exact: true })).toHaveCount(1);
});
