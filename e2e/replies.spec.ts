import { randomUUID } from 'node:crypto';
import type { ConversationMessage, ConversationSummaryPage, ConversationThreadPage } from '../lib/contract';
import { test, expect, type SignedIn } from './fixtures';
import { expectNoA11yViolations } from './support/axe';
import { seed } from './support/seed';

/** The viewer's newest messages with `peer`: their conversation, found in their list, read by its id. */
async function messagesOf(viewer: SignedIn, peer: SignedIn): Promise<ConversationMessage[]> {
  const headers = { Authorization: viewer.token };
  const list = await viewer.page.request.get('/api/c', { headers });
  expect(list.status()).toBe(200);
  const row = ((await list.json()) as ConversationSummaryPage).results.find((summary) => summary.user?.id === peer.person.id);
  expect(row, `${peer.person.name} in ${viewer.person.name}'s list`).toBeDefined();
  const response = await viewer.page.request.get(`/api/c/${row!.conversation_id}/messages?limit=100`, { headers });
  expect(response.status()).toBe(200);
  return ((await response.json()) as ConversationThreadPage).results;
}

test('a reply quotes its message for both people, and its quote opens an original far back in the history', async ({ alice, bob }, testInfo) => {
  test.setTimeout(150_000);
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.send('Where shall we meet?');
  await bob.chat.openConversation(alice.person.name);

  // Bob picks Reply: the quote sits above his box, which has the focus; Escape takes it away.
  await bob.chat.messageAction(alice.person.name, 'Where shall we meet?', 'Reply');
  const replying = bob.chat.thread(alice.person.name).getByRole('group', { name: `Replying to ${alice.person.name}` });
  await expect(replying).toContainText('Where shall we meet?');
  await expect(bob.chat.composer).toBeFocused();
  await expectNoA11yViolations(bob.page, testInfo, 'replying');
  await bob.chat.composer.press('Escape');
  await expect(replying).toBeHidden();
  await bob.chat.messageAction(alice.person.name, 'Where shall we meet?', 'Reply');
  await bob.chat.send('At the station');
  await expect(replying).toBeHidden();
  const quoteName = new RegExp(`^Reply to\\s*${alice.person.name}\\s*Where shall we meet\\?$`);
  await expect(bob.chat.message(alice.person.name, 'At the station').getByRole('button', { name: quoteName })).toBeVisible();
  await expect(alice.chat.message(bob.person.name, 'At the station').getByRole('button', { name: /^Reply to\s*You\s*Where shall we meet\?$/ })).toBeVisible();

  // Sixty more messages, then one of Bob's answering the first: after a reload its original is
  // beyond the newest page, and the quote brings it (and the messages around it) back.
  const [original] = (await messagesOf(alice, bob)).filter((message) => message.text === 'Where shall we meet?');
  await seed(bob, alice, [...Array.from({ length: 60 }, (_, i) => `filler ${i}`), 'Still there?'], original!.id);
  await alice.page.reload();
  await alice.chat.openConversation(bob.person.name);
  // It opens at the first unread message, if Alice's tab had not read them live: to the bottom.
  const still = alice.chat.message(bob.person.name, 'Still there?');
  const scroller = alice.chat.thread(bob.person.name).locator('[data-virtuoso-scroller]');
  await expect(async () => {
    await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await expect(still).toBeVisible({ timeout: 1_000 });
  }).toPass();
  // The original by its id: its words are also in the quotes of the replies.
  const originalBubble = alice.chat.thread(bob.person.name).locator(`[data-message-id="${original!.id}"]`);
  await expect(originalBubble).toHaveCount(0);
  // Enter on the quote (again if the list re-rendered it under the key press, as it does while it
  // settles at the bottom; once the window replaced the reply, there is only the original to wait for).
  await expect(async () => {
    if ((await still.count()) > 0) await still.getByRole('button', { name: /^Reply to\s*You\s*Where shall we meet\?$/ }).press('Enter', { timeout: 2_000 });
    await expect(originalBubble).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  await expect(originalBubble).toHaveAttribute('data-highlighted', 'true');
  await expect(alice.chat.message(bob.person.name, 'Still there?')).toHaveCount(0);
  await expectNoA11yViolations(alice.page, testInfo, 'window around a message');

  // Jump to latest: back at the newest messages.
  await alice.chat.thread(bob.person.name).getByRole('button', { name: /^Jump to latest/ }).click();
  await expect(alice.chat.message(bob.person.name, 'Still there?')).toBeVisible();
  await expect(originalBubble).toHaveCount(0);
});

test('search in messages finds a message by a word and opens the conversation at it; an unsent one is not found', async ({ alice, bob }, testInfo) => {
  test.setTimeout(120_000);
  const word = `kayak${randomUUID().slice(0, 6)}`;
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.send(`The blue ${word} is ready`);
  await alice.chat.send(`Secret ${word} plan`);
  await alice.chat.messageAction(bob.person.name, `Secret ${word} plan`, 'Unsend for everyone');
  await alice.page.getByRole('dialog', { name: 'Unsend this message?' }).getByRole('button', { name: 'Unsend for everyone' }).click();
  await expect(alice.chat.thread(bob.person.name).getByText('Message deleted')).toBeVisible();

  await bob.page.getByRole('button', { name: 'Search messages' }).click();
  const box = bob.page.getByRole('searchbox', { name: 'Search in your messages' });
  await expect(box).toBeFocused();
  await box.fill(word.toUpperCase());
  await expect(bob.page.getByRole('status').filter({ hasText: '1 message found' })).toBeAttached();
  const results = bob.page.getByRole('region', { name: 'Messages found' });
  const result = results.getByRole('button', { name: new RegExp(`${alice.person.name}.*The blue ${word} is ready`) });
  await expect(result).toBeVisible();
  await expect(result.locator('mark')).toHaveText(word);
  await expect(results.getByText(`Secret ${word} plan`)).toHaveCount(0);
  await expectNoA11yViolations(bob.page, testInfo, 'message search results');

  await result.press('Enter');
  const [found] = (await messagesOf(bob, alice)).filter((message) => message.text === `The blue ${word} is ready`);
  await expect(bob.page).toHaveURL(new RegExp(`/main/${alice.person.id}\\?message=${found!.id}$`));
  const bubble = bob.chat.thread(alice.person.name).locator(`[data-message-id="${found!.id}"]`);
  await expect(bubble).toBeVisible();
  await expect(bubble).toHaveAttribute('data-highlighted', 'true');
  // A reload keeps the place: the address names the message.
  await bob.page.reload();
  await expect(bob.chat.thread(alice.person.name).locator(`[data-message-id="${found!.id}"]`)).toBeVisible();
});
