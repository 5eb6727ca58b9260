// Safety with two people in two browsers: block, who can message me, mute, report, the data
// download and deleting an account, each as the people on both sides see it.
import { readFile } from 'node:fs/promises';
import type { AccountExport } from '../lib/contract';
import { png } from '../testing/png';
import { test, expect, newPerson, signInNewContext } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { expectNoA11yViolationsLightAndDark } from './support/axe';
import { SettingsDialog } from './pages/settings-dialog';
import { goOffline } from './support/network';
import { readStorage } from './support/storage';

const CANNOT = "You can't message this person.";
// A refused send, as the message says it (lib/realtime/send-refusal.ts: the same words for a block
// and a policy, so nobody learns which).
const REFUSED = 'Not sent: this person isn’t accepting messages from you.';

async function twoPeople(browser: Parameters<typeof signInNewContext>[0]) {
  const [aliceName, bobName] = [newPerson('Alice'), newPerson('Bob')];
  const aliceSession = await signInNewContext(browser, aliceName);
  const bobSession = await signInNewContext(browser, bobName);
  return { aliceName, bobName, aliceSession, bobSession, alice: new ChatPage(aliceSession.page), bob: new ChatPage(bobSession.page) };
}

test('block from a search result: the conversation and its unread leave every tab; their send is refused; unblock from settings', async ({ browser }) => {
  test.setTimeout(120_000);
  const { aliceName, bobName, aliceSession, alice, bob } = await twoPeople(browser);
  const aliceOtherTab = new ChatPage(await aliceSession.context.newPage());
  await aliceOtherTab.page.goto('/main');

  await bob.search(aliceName.name);
  await bob.openFromSearch(aliceName.name);
  await bob.send('first');
  await bob.send('second');
  for (const tab of [alice, aliceOtherTab]) await expect(tab.unreadCount).toHaveText('2');

  await alice.search(bobName.name);
  await alice.searchResults.getByRole('button', { name: `Block ${bobName.name}` }).click();
  const confirm = alice.page.getByRole('dialog', { name: `Block ${bobName.name}?` });
  await confirm.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(confirm).toBeHidden();
  // Gone from the results, the list and the unread total, on both of Alice's tabs.
  await expect(alice.searchResult(bobName.name)).toBeHidden();
  await alice.searchBox.fill('');
  for (const tab of [alice, aliceOtherTab]) {
    await expect(tab.conversations.getByText(bobName.name)).toBeHidden();
    await expect(tab.unreadCount).toHaveText('0');
  }

  // Bob's next message is refused with the generic words, and nothing reaches Alice.
  await bob.send('are you there?');
  // In the message (and in the thread's live region for screen readers).
  await expect(bob.thread(aliceName.name).getByText(REFUSED).first()).toBeVisible();
  await expect(alice.unreadCount).toHaveText('0');

  // Unblock from settings: the conversation and its two unread messages come back.
  const privacy = new SettingsDialog(alice.page);
  await privacy.open('Blocked people');
  await expect(privacy.blockedList().getByText(bobName.name)).toBeVisible();
  await privacy.blockedList().getByRole('button', { name: `Unblock ${bobName.name}` }).click();
  await expect(privacy.dialog.getByText('You have not blocked anyone.')).toBeVisible();
  await privacy.close();
  await expect(alice.conversations.getByText(bobName.name)).toBeVisible();
  for (const tab of [alice, aliceOtherTab]) await expect(tab.unreadCount).toHaveText('2');
});

test('who can message me: "Nobody" shows before typing, and a first message already on its way is refused', async ({ browser }, testInfo) => {
  // Two people signing in, and axe in two colour schemes on two screens.
  test.setTimeout(180_000);
  const { aliceName, bobName, alice, bob, bobSession } = await twoPeople(browser);
  // Bob opens a conversation with Alice while anyone may write to her, and writes to her while
  // his connection is down: the message waits in his outbox.
  await bob.search(aliceName.name);
  await bob.openFromSearch(aliceName.name);
  await expect(bob.composer).toBeVisible();
  await goOffline(bobSession.context);
  await bob.send('hello there');

  const privacy = new SettingsDialog(alice.page);
  await privacy.open('Privacy');
  await expect(privacy.dialog.getByRole('radio', { name: 'Everyone' })).toBeChecked();
  await privacy.setWhoCanMessage('Nobody');
  await privacy.close();

  // Back online, the message already on its way is refused: in the message (and in the thread's
  // live region for screen readers); refused for good, so there is nothing to retry, only the
  // message to remove. The conversation now says so instead of offering a message box.
  await bobSession.context.setOffline(false);
  const thread = bob.thread(aliceName.name);
  await expect(thread.getByText(REFUSED).first()).toBeVisible();
  await expect(thread.getByText(CANNOT, { exact: true })).toBeVisible();
  await expect(bob.composer).toBeHidden();
  await expect(thread.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expectNoA11yViolationsLightAndDark(bob.page, testInfo, 'refused message');
  await thread.getByRole('button', { name: 'Remove this unsent message' }).click();
  await expect(thread.getByText('hello there')).toHaveCount(0);

  // Opened afresh: the search result offers no Message, and says why; the thread says so
  // instead of offering a message box.
  await bob.page.reload();
  await bob.search(aliceName.name);
  await expect(bob.messageLink(aliceName.name)).toHaveCount(0);
  await expect(bob.searchResults.getByText('Doesn’t accept messages from you')).toBeVisible();
  await expectNoA11yViolationsLightAndDark(bob.page, testInfo, 'search result that accepts no messages');
  await bob.openFromSearch(aliceName.name);
  await expect(bob.thread(aliceName.name).getByText(CANNOT, { exact: true })).toBeVisible();
  await expect(bob.composer).toBeHidden();

  // The setting is kept on the account: it is still "Nobody" after a reload.
  await alice.page.reload();
  await privacy.open('Privacy');
  await expect(privacy.dialog.getByRole('radio', { name: 'Nobody' })).toBeChecked();
  await expect(alice.conversations.getByText(bobName.name)).toBeHidden();
});

test('mute from the conversation header: the row says so on every tab and after a reload; the badge still counts', async ({ browser }) => {
  test.setTimeout(120_000);
  const { aliceName, bobName, aliceSession, alice, bob } = await twoPeople(browser);
  const aliceOtherTab = new ChatPage(await aliceSession.context.newPage());
  await aliceOtherTab.page.goto('/main');
  await bob.search(aliceName.name);
  await bob.openFromSearch(aliceName.name);
  await bob.send('ping');

  await alice.openConversation(bobName.name);
  await alice.thread(bobName.name).getByRole('button', { name: 'Mute conversation' }).click();
  await expect(alice.thread(bobName.name).getByRole('button', { name: 'Unmute conversation' })).toHaveAttribute('aria-pressed', 'true');
  const mutedRow = (tab: ChatPage) => tab.conversations.getByRole('button', { name: new RegExp(`^${bobName.name}.*Muted`) });
  await expect(mutedRow(alice)).toBeVisible();
  await expect(mutedRow(aliceOtherTab)).toBeVisible();

  await bob.send('pong');
  await expect(aliceOtherTab.unreadCount).toHaveText('0');
  await aliceOtherTab.page.reload();
  await expect(mutedRow(aliceOtherTab)).toBeVisible();
});

test('report a received message, and download my data: the file holds the conversation and the report', async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const { aliceName, bobName, alice, bob } = await twoPeople(browser);
  await bob.search(aliceName.name);
  await bob.openFromSearch(aliceName.name);
  await bob.send('buy cheap pills');
  // Bob's own message has no Report action: only messages one received can be reported.
  await expect(bob.thread(aliceName.name).getByText('Sent', { exact: true })).toBeVisible();
  await bob.message(aliceName.name, 'buy cheap pills').getByRole('button', { name: 'Message actions' }).click();
  await expect(bob.page.getByRole('menu', { name: 'Message actions' }).getByRole('menuitem', { name: 'Delete for me' })).toBeVisible();
  await expect(bob.page.getByRole('menuitem', { name: 'Report' })).toHaveCount(0);
  await bob.page.keyboard.press('Escape');

  await alice.openConversation(bobName.name);
  await alice.messageAction(bobName.name, 'buy cheap pills', 'Report');
  const report = alice.page.getByRole('dialog', { name: 'Report this message' });
  await report.getByRole('radio', { name: 'Spam' }).check();
  await report.getByLabel('Details (optional)').fill('Third time today');
  await report.getByRole('button', { name: 'Send report' }).click();
  await expect(report.getByText('Thank you. Our moderators will look at your report.')).toBeVisible();
  await report.getByRole('button', { name: 'Close' }).last().click();

  const privacy = new SettingsDialog(alice.page);
  await privacy.open('Your data');
  // For reviewers (test artifacts): the settings screen.
  const screen = testInfo.outputPath('privacy-and-account.png');
  await alice.page.screenshot({ path: screen });
  await testInfo.attach('privacy-and-account', { path: screen, contentType: 'image/png' });
  const [download] = await Promise.all([
    alice.page.waitForEvent('download'),
    privacy.dialog.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^parley-data-\d+-\d{4}-\d\d-\d\d\.json$/);
  const file = testInfo.outputPath('my-data.json');
  await download.saveAs(file);
  const data = JSON.parse(await readFile(file, 'utf8')) as AccountExport;
  expect(data.user.username).toBe(aliceName.name);
  expect(data.conversations.map((row) => row.username)).toEqual([bobName.name]);
  expect(data.messages.map((message) => message.text)).toEqual(['buy cheap pills']);
  expect(data.reports).toEqual([expect.objectContaining({ reason: 'spam', details: 'Third time today', message_text: 'buy cheap pills' })]);
  expect(JSON.stringify(data)).not.toContain(((await readStorage(alice.page)).token ?? 'none').replace('Bearer ', ''));
  await expect(privacy.dialog.getByText('Your data has been downloaded.')).toBeVisible();
});

test('delete my account: typed confirmation, signed out; the other person keeps the text, sees "Deleted account" and cannot reply', async ({ browser }) => {
  test.setTimeout(120_000);
  const { aliceName, bobName, alice, bob } = await twoPeople(browser);
  await bob.search(aliceName.name);
  await bob.openFromSearch(aliceName.name);
  await bob.send('keep this');
  await bob.fileInput.setInputFiles({ name: 'dots.png', mimeType: 'image/png', buffer: png(20, 20) });
  await expect(bob.sendButton).toBeEnabled();
  await bob.sendButton.click();
  await expect(alice.unreadCount).toHaveText('2');

  const privacy = new SettingsDialog(bob.page);
  await privacy.open('Your data');
  await privacy.dialog.getByRole('button', { name: 'Delete my account' }).click();
  const forever = privacy.dialog.getByRole('button', { name: 'Delete my account forever' });
  await expect(forever).toBeDisabled();
  await privacy.dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  await forever.click();
  await expect(bob.page).toHaveURL(/\/account$/);

  await alice.page.reload();
  await alice.openConversation('Deleted account');
  const thread = alice.thread('Deleted account');
  await expect(thread.getByText('keep this')).toBeVisible();
  await expect(thread.getByText('Attachment removed')).toBeVisible();
  await expect(thread.getByText('This account has been deleted. You can no longer reply.')).toBeVisible();
  await expect(alice.composer).toBeHidden();
  await expect(alice.conversations.getByText(bobName.name)).toBeHidden();
});
