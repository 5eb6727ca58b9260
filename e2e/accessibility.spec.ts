// axe-core on every screen, light and dark, desktop and phone: /account, and /main with its list,
// an open conversation and search results. Zero violations allowed. Screenshots of the list and
// the conversation are attached for reviewers.
import { test, expect, newPerson } from './fixtures';
import { AccountPage } from './pages/account-page';
import { expectNoA11yViolations } from './support/axe';
import { goOffline } from './support/network';
import { DESKTOP, PHONE, signedIn } from './support/people';
import { attachScreen } from './support/screens';

test.describe.configure({ timeout: 120_000 });

const LAYOUTS = { desktop: DESKTOP, phone: PHONE } as const;

for (const scheme of ['light', 'dark'] as const) {
  for (const [layout, options] of Object.entries(LAYOUTS)) {
    const label = `${layout}-${scheme}`;

    test(`no axe violations, ${layout}, ${scheme}: /account`, async ({ browser }, testInfo) => {
      const context = await browser.newContext({ ...options, colorScheme: scheme });
      const page = await context.newPage();
      await new AccountPage(page).goto();
      await expectNoA11yViolations(page, testInfo, `account-${label}`);
      await attachScreen(page, testInfo, `account-${label}`);
      await context.close();
    });

    test(`no axe violations, ${layout}, ${scheme}: /main list, conversation, search`, async ({ browser }, testInfo) => {
      const aliceName = newPerson('Alice');
      const bobName = newPerson('Bob');
      const alice = await signedIn(browser, aliceName, { ...options, colorScheme: scheme });
      const bob = await signedIn(browser, bobName);
      await bob.search(aliceName.name);
      await bob.openFromSearch(aliceName.name);
      await bob.send('Hi Alice, here is the plan: https://example.com/plan');
      await bob.send('And the notes follow.');
      await bob.fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes\n') });
      await expect(bob.sendButton).toBeEnabled();
      await bob.sendButton.click();
      await expect(alice.unreadCount).toHaveText('3');

      await expectNoA11yViolations(alice.page, testInfo, `main-list-${label}`);
      await attachScreen(alice.page, testInfo, `main-list-${label}`);

      await alice.openConversation(bobName.name);
      await alice.send('Thanks Bob, with a file back:');
      await alice.fileInput.setInputFiles({ name: 'reply.txt', mimeType: 'text/plain', buffer: Buffer.from('reply\n') });
      await expect(alice.sendButton).toBeEnabled();
      await alice.sendButton.click();
      await expect(alice.thread(bobName.name).getByRole('link', { name: 'Download reply.txt' })).toBeVisible();
      // Bob has the conversation open, with read receipts on: the screen settles with "Seen" under
      // Alice's last message and no "Sent" left (for a moment the text is seen and the file is not).
      await expect(alice.thread(bobName.name).getByTestId('seen')).toBeVisible();
      await expect(alice.thread(bobName.name).getByText('Sent', { exact: true }).filter({ visible: true })).toHaveCount(0);
      await expectNoA11yViolations(alice.page, testInfo, `main-conversation-${label}`);
      await attachScreen(alice.page, testInfo, `main-conversation-${label}`);
      // A message waiting for the connection is drawn as waiting, its text as readable as any.
      await goOffline(alice.page.context());
      await alice.send('Written on the train.');
      await expect(alice.thread(bobName.name).locator('[data-own="true"][data-status="sending"]').getByText('Written on the train.')).toBeVisible();
      await expectNoA11yViolations(alice.page, testInfo, `main-conversation-waiting-${label}`);
      await alice.page.context().setOffline(false);
      await expect(alice.thread(bobName.name).locator('[data-own="true"]:not([data-status="sent"])')).toHaveCount(0);

      if (layout === 'phone') await alice.page.goBack();
      await alice.searchBox.fill(bobName.name.slice(0, 5));
      await expect(alice.searchResult(bobName.name)).toBeVisible();
      await alice.searchSettled();
      await expectNoA11yViolations(alice.page, testInfo, `main-search-${label}`);
    });
  }
}
