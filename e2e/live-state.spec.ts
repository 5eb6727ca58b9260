// What others change, and what a connection or a block changes, followed live with two people in
// two browsers: reading part way through unread messages, a peer deleting their account, a
// "who can message me" switch, a block from an open conversation, muted counts, and presence
// while offline.
import type { Page } from '@playwright/test';
import type { ConversationThreadPage } from '../lib/contract';
import { test, expect, newPerson, signInNewContext, type SignedIn } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { SettingsDialog } from './pages/settings-dialog';
import { ThreadPage } from './pages/thread-page';
import { expectNoA11yViolations } from './support/axe';
import { goOffline } from './support/network';
import { seed } from './support/seed';

const CANNOT = "You can't message this person.";

// Two signed-in people per test, set up before the body: the budget covers their sign-in too.
test.describe.configure({ timeout: 300_000 });

/** Each writes to the other, so each may see the other's presence. */
async function talking(alice: SignedIn, bob: SignedIn): Promise<void> {
  await seed(alice, bob, ['hi Bob']);
  await seed(bob, alice, ['hi Alice']);
}

const count = async (page: Page) => Number(await page.getByTestId('unread-count').textContent());

test('reading part way through 40 unread: the counts fall as messages come into view, and the sender’s “Seen” follows', async ({ alice, bob }, testInfo) => {
  const [first] = await seed(bob, alice, Array.from({ length: 40 }, (_, i) => `unread ${i + 1}`));
  await expect(alice.chat.unreadCount).toHaveText('40');
  await expect(alice.page).toHaveTitle('(40) Parley');

  // The conversation opens at the first unread message: only what fits on screen is read.
  await alice.chat.openConversation(bob.person.name);
  const thread = new ThreadPage(alice.page, bob.person.name);
  await expect(thread.message('unread 1')).toBeVisible();
  const jump = alice.page.getByTestId('jump-count');
  // Settled: reads go at most once a second while the list finds its place, so the same count
  // twice, 1.5 s apart, on the badge and the jump button alike.
  let previous = -1;
  await expect
    .poll(
      async () => {
        const badge = await count(alice.page);
        const settled = badge === previous;
        previous = badge;
        return settled && badge > 0 && badge < 40 && Number(await jump.textContent()) === badge;
      },
      { intervals: [1_500], timeout: 20_000 },
    )
    .toBe(true);
  const left = await count(alice.page);
  await expect(alice.page).toHaveTitle(`(${left}) ${bob.person.name} · Parley`);
  const row = alice.chat.conversationRow(bob.person.name);
  await expect(row).toContainText(`${left} unread messages`);

  // Bob's messages up to the last one on Alice's screen are read, the rest are not: as Bob sees
  // the conversation, Alice has read up to that message's seq. Bob's newest is not "Seen" yet.
  const asBob = await bob.page.request.get(`/api/c/${first!.conversation_id}/messages?limit=50`, { headers: { Authorization: bob.token } });
  const { results, seen } = (await asBob.json()) as ConversationThreadPage;
  const readUpTo = seen.find((position) => position.user_id === alice.person.id)?.seq ?? 0;
  const read = results.filter((message) => message.sender_id === bob.person.id && message.seq <= readUpTo).length;
  expect(read).toBe(40 - left);
  await bob.chat.openConversation(alice.person.name);
  const newest = bob.chat.message(alice.person.name, 'unread 40');
  await expect(newest).toContainText('Sent');
  await expect(newest.getByTestId('seen')).toHaveCount(0);

  // Going down to the newest reads the rest: every count reaches zero and "Seen" moves to Bob's newest.
  await thread.jumpButton.click();
  await expect(alice.chat.unreadCount).toHaveText('0');
  await expect(alice.page).toHaveTitle(`${bob.person.name} · Parley`);
  await expect(newest.getByTestId('seen')).toBeVisible();
  await expectNoA11yViolations(alice.page, testInfo, 'thread read part way');
});

test('a peer deletes their account while the conversation is open: it says so at once, with no message box or Follow', async ({ browser }, testInfo) => {
  const [aliceName, bobName] = [newPerson('Alice'), newPerson('Bob')];
  const alice = new ChatPage((await signInNewContext(browser, aliceName)).page);
  const bobSession = await signInNewContext(browser, bobName);
  const bob = new ChatPage(bobSession.page);
  await bob.search(aliceName.name);
  await bob.openFromSearch(aliceName.name);
  await bob.send('keep this');
  await alice.openConversation(bobName.name);
  const thread = alice.thread(bobName.name);
  await expect(alice.composer).toBeVisible();
  await expect(thread.getByRole('button', { name: new RegExp(`^Follow ${bobName.name}`) })).toBeVisible();

  const privacy = new SettingsDialog(bob.page);
  await privacy.open('Your data');
  await privacy.dialog.getByRole('button', { name: 'Delete my account' }).click();
  await privacy.dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  await privacy.dialog.getByRole('button', { name: 'Delete my account forever' }).click();
  await expect(bob.page).toHaveURL(/\/account$/);

  // No reload: the open conversation and its row follow.
  const gone = alice.thread('Deleted account');
  await expect(gone.getByText('This account has been deleted. You can no longer reply.')).toBeVisible();
  await expect(gone.getByText('keep this')).toBeVisible();
  await expect(alice.composer).toBeHidden();
  await expect(gone.getByRole('button', { name: /^Follow / })).toHaveCount(0);
  await expect(alice.conversationRow('Deleted account')).toBeVisible();
  await expect(alice.conversations.getByText(bobName.name)).toHaveCount(0);
  await expectNoA11yViolations(alice.page, testInfo, 'conversation with a deleted account');
});

test('“who can message me” switched back to Everyone: the other side’s open conversation offers the message box at once', async ({ browser }) => {
  const [aliceName, bobName] = [newPerson('Alice'), newPerson('Bob')];
  const alice = new ChatPage((await signInNewContext(browser, aliceName)).page);
  const bob = new ChatPage((await signInNewContext(browser, bobName)).page);
  const privacy = new SettingsDialog(alice.page);
  await privacy.open('Privacy');
  await privacy.setWhoCanMessage('Nobody');
  await privacy.close();

  await bob.search(aliceName.name);
  await bob.openFromSearch(aliceName.name);
  await expect(bob.thread(aliceName.name).getByText(CANNOT, { exact: true })).toBeVisible();
  await expect(bob.composer).toBeHidden();

  await privacy.open('Privacy');
  await privacy.setWhoCanMessage('Everyone');
  await privacy.close();
  await expect(bob.composer).toBeVisible();
  await expect(bob.thread(aliceName.name).getByText(CANNOT, { exact: true })).toHaveCount(0);
  await bob.send('finally');
  await expect(alice.conversationRow(bobName.name)).toContainText('finally');

  // Stricter again: a conversation already under way stays open (the setting gates new ones).
  await privacy.open('Privacy');
  await privacy.setWhoCanMessage('Nobody');
  await privacy.close();
  await bob.send('still here');
  await expect(alice.conversationRow(bobName.name)).toContainText('still here');
});

test('block from an open conversation: each one’s “Online” goes at once, the row keeps the last message, and no Follow after a reload', async ({ alice, bob }, testInfo) => {
  await talking(alice, bob);
  await alice.chat.openConversation(bob.person.name);
  await bob.chat.openConversation(alice.person.name);
  const aliceThread = alice.chat.thread(bob.person.name);
  const bobThread = bob.chat.thread(alice.person.name);
  await expect(aliceThread.getByText('Online', { exact: true })).toBeVisible();
  await expect(bobThread.getByText('Online', { exact: true })).toBeVisible();

  await aliceThread.getByRole('button', { name: bob.person.name, exact: true }).click();
  await aliceThread.getByRole('button', { name: `Block ${bob.person.name}` }).click();
  const confirm = alice.page.getByRole('dialog', { name: `Block ${bob.person.name}?` });
  await confirm.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(confirm).toBeHidden();

  await expect(aliceThread.getByText('Online', { exact: true })).toHaveCount(0);
  await expect(bobThread.getByText('Online', { exact: true })).toHaveCount(0);
  // The open conversation's row shows its last message, not "New conversation".
  const openRow = alice.chat.conversations.getByRole('button', { name: new RegExp(`^${bob.person.name}`) });
  await expect(openRow).toContainText('hi Alice');
  await expect(openRow).not.toContainText('New conversation');

  await alice.page.reload();
  // A reload on a loaded machine: the page, the session check and the profile all come again.
  await expect(aliceThread.getByText(`You blocked ${bob.person.name}`, { exact: false })).toBeVisible({ timeout: 60_000 });
  await expect(aliceThread.getByRole('button', { name: new RegExp(`^Follow ${bob.person.name}`) })).toHaveCount(0);
  await expect(aliceThread.getByText('Online', { exact: true })).toHaveCount(0);
  await expectNoA11yViolations(alice.page, testInfo, 'conversation after a block');
});

test('a muted conversation keeps its count greyed, out of the tab title and the header pill’s colour', async ({ alice, bob }, testInfo) => {
  await seed(bob, alice, ['first']);
  await alice.chat.openConversation(bob.person.name);
  // Read once it has been on screen a moment (components/chat/item-frame.tsx): leaving sooner
  // leaves it unread, and the count below would be three.
  await expect(alice.chat.unreadCount).toHaveText('0');
  // Muting shows at once; the page is left only once the server has it.
  const muted = alice.page.waitForResponse((response) => response.request().method() === 'PATCH' && /\/api\/conversations\/\d+$/.test(response.url()));
  await alice.chat.thread(bob.person.name).getByRole('button', { name: 'Mute conversation' }).click();
  expect((await muted).ok()).toBe(true);
  await alice.page.goto('/main');

  await seed(bob, alice, ['second', 'third']);
  const row = alice.chat.conversationRow(bob.person.name);
  await expect(row).toContainText('2 unread messages');
  await expect(row.locator('[data-muted="true"]')).toBeVisible();
  // The spec's total still counts them; the pill is quiet and the title leaves them out.
  await expect(alice.chat.unreadCount).toHaveText('2');
  await expect(alice.page.getByTitle('2 unread messages')).toHaveAttribute('data-quiet', 'true');
  await expect(alice.page).toHaveTitle('Parley');
  await expectNoA11yViolations(alice.page, testInfo, 'muted conversation with unread messages');
});

test('presence is dropped while the connection is down and comes back with it', async ({ alice, bob }) => {
  await talking(alice, bob);
  await alice.chat.openConversation(bob.person.name);
  const thread = alice.chat.thread(bob.person.name);
  const row = alice.chat.conversationRow(bob.person.name);
  await expect(thread.getByText('Online', { exact: true })).toBeVisible();
  await expect(row).toContainText('Online');

  await goOffline(alice.context);
  await expect(thread.getByText('Online', { exact: true })).toHaveCount(0);
  await expect(row).not.toContainText('Online');

  await alice.context.setOffline(false);
  await expect(thread.getByText('Online', { exact: true })).toBeVisible();
  await expect(row).toContainText('Online');
});
