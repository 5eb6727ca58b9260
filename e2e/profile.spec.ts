// The profile as people use it: a name and a photo chosen in the settings, seen at once by the
// people one talks with, kept over later sign-ins; a nameless account that gets a name.
import { randomUUID } from 'node:crypto';
import { png } from '../testing/png';
import { test, expect, newPerson } from './fixtures';
import { AccountPage } from './pages/account-page';
import { ChatPage } from './pages/chat-page';
import { SettingsDialog } from './pages/settings-dialog';
import { target } from './support/env';
import { EMULATOR } from './support/requirements';
import { People } from './support/people/people';

test.describe.configure({ timeout: 120_000 });

const uniqueName = (first: string) => `${first} ${randomUUID().slice(0, 8)}`;

test('a name Alice chooses shows at once in her header and in Bob’s list, open conversation and search', async ({ alice, bob }) => {
  await bob.chat.search(alice.person.name);
  await bob.chat.openFromSearch(alice.person.name);
  await bob.chat.send('Hi Alice!');
  await expect(alice.chat.unreadCount).toHaveText('1');

  const settings = new SettingsDialog(alice.page);
  await settings.openProfile();
  await expect(settings.nameInput).toHaveValue(alice.person.name);
  const chosen = uniqueName('Ada');
  // Stored as shown, without the zero-width space and the surrounding spaces.
  await settings.saveName(`  ${chosen.replace(' ', ' \u200B')} `);
  await expect(settings.nameInput).toHaveValue(chosen);
  await settings.close();
  await expect(alice.main.signedInUser).toContainText(chosen);

  // Bob, without reloading: his list row, the open conversation and its header.
  await expect(bob.chat.conversationRow(chosen)).toBeVisible();
  await expect(bob.chat.thread(chosen)).toBeVisible();
  await expect(bob.page.getByRole('heading', { name: chosen })).toBeVisible();
  // And search finds her by it.
  await bob.chat.searchBox.fill(chosen.split(' ')[1]!);
  await expect(bob.chat.searchResult(chosen)).toBeVisible();
});

test('a name must have something visible and fit in 100 characters; the form says so before saving', async ({ alice }) => {
  const settings = new SettingsDialog(alice.page);
  await settings.openProfile();
  const save = settings.dialog.getByRole('button', { name: 'Save name' });
  await expect(save).toBeDisabled(); // unchanged
  await settings.nameInput.fill('\u200B\u202E ');
  await expect(settings.dialog.getByText('Enter a name with at least one visible character.')).toBeVisible();
  await expect(settings.nameInput).toHaveAttribute('aria-invalid', 'true');
  await expect(save).toBeDisabled();
  await settings.nameInput.fill('x'.repeat(101));
  await expect(settings.dialog.getByText('A name can be at most 100 characters.')).toBeVisible();
  await expect(save).toBeDisabled();
  await settings.nameInput.fill(alice.person.name);
  await expect(settings.nameInput).toHaveAttribute('aria-invalid', 'false');
});

test('a chosen name stays after signing out and in again, though the provider still sends the old one', async ({ page, person, signIn }) => {
  await signIn();
  const settings = new SettingsDialog(page);
  await settings.openProfile();
  const chosen = uniqueName('Grace');
  await settings.saveName(chosen);
  await settings.close();
  await page.getByRole('button', { name: 'Sign out' }).click();
  const account = new AccountPage(page);
  await expect(account.heading).toBeVisible();
  // The test account sends person.name as the provider's name again.
  await account.signInWithTestAccount(person.name, person.email);
  await expect(page).toHaveURL(/\/main$/);
  await expect(page.getByLabel('Signed in user')).toContainText(chosen);
});

test('an account with no name shows as "Unknown user" to others until it adds one', { tag: EMULATOR }, async ({ browser, bob }) => {
  // A provider account without a display name: the name typed is only invisible characters.
  const nameless = { name: '\u200B', email: newPerson('nameless').email };
  await new People(target).recordFormPerson(nameless);
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = new AccountPage(page);
  await account.goto();
  await account.signInWithTestAccount(nameless.name, nameless.email);
  await expect(page).toHaveURL(/\/main$/);
  // Its own header shows the email instead.
  await expect(page.getByLabel('Signed in user')).toContainText(nameless.email);

  const chat = new ChatPage(page);
  await chat.search(bob.person.name);
  await chat.openFromSearch(bob.person.name);
  await chat.send('Guess who?');
  await expect(bob.chat.conversationRow('Unknown user')).toBeVisible();

  const settings = new SettingsDialog(page);
  await settings.openProfile();
  await expect(settings.nameInput).toHaveValue('');
  await expect(settings.dialog.getByText('You have no name yet, so people see you as “Unknown user”.', { exact: false })).toBeVisible();
  const chosen = uniqueName('Lin');
  await settings.saveName(chosen);
  await expect(bob.chat.conversationRow(chosen)).toBeVisible();
  await expect(bob.chat.conversationRow('Unknown user')).toHaveCount(0);
  await context.close();
});

test('a photo: chosen, framed, cut square by the browser, shown to Bob at once; removed, the initials come back', async ({ alice, bob }) => {
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.send('New photo coming');
  await expect(bob.chat.conversationRow(alice.person.name)).toBeVisible();

  const settings = new SettingsDialog(alice.page);
  await settings.openProfile();
  // Not a picture: said plainly, nothing uploaded.
  await settings.choosePhoto({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture\n') });
  await expect(settings.dialog.getByRole('alert')).toHaveText('That file is not a picture Parley can use. Choose a JPEG, PNG, WebP or GIF image.');

  await settings.choosePhoto({ name: 'holiday.png', mimeType: 'image/png', buffer: png(600, 400) });
  await expect(settings.photoFrame).toBeVisible();
  await settings.photoFrame.focus();
  await settings.photoFrame.press('ArrowLeft');
  await settings.dialog.getByRole('slider', { name: 'Zoom' }).fill('2');
  await settings.savePhoto();

  const own = alice.main.signedInUser.locator('img');
  await expect(own).toHaveAttribute('src', /\/api\/uploads\/[\w-]+\/avatar\.(webp|png)$/);
  const src = (await own.getAttribute('src'))!;
  // What was uploaded is the 256 × 256 square the canvas drew, not the 600 × 400 original.
  const size = await own.evaluate(async (image: HTMLImageElement) => {
    await image.decode();
    return [image.naturalWidth, image.naturalHeight];
  });
  expect(size).toEqual([256, 256]);
  await expect(settings.dialog.locator(`img[src="${src}"]`)).toBeVisible();

  // Bob's list shows it without a reload, and after one.
  const row = bob.chat.conversationRow(alice.person.name);
  await expect(row.locator('img')).toHaveAttribute('src', src);
  await bob.page.reload();
  await expect(row.locator('img')).toHaveAttribute('src', src);

  await settings.dialog.getByRole('button', { name: 'Remove photo' }).click();
  await expect(settings.dialog.getByRole('status').filter({ hasText: 'Photo removed.' })).toBeVisible();
  await expect(own).toHaveCount(0);
  await expect(row.locator('img')).toHaveCount(0);
  await expect(settings.dialog.getByRole('button', { name: 'Add a photo' })).toBeVisible();
});
