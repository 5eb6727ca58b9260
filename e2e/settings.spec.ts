// The settings: a short menu (language, and the way to everything else), a dialog of sections
// with the language among them, and the keyboard: tabs move with the arrows, dialogs keep the
// focus inside while open and give it back to what opened them.
import { test, expect } from './fixtures';
import { SettingsDialog } from './pages/settings-dialog';
import { readStorage } from './support/storage';

test.describe.configure({ timeout: 90_000 });

test('the menu stays short; the dialog offers the language too, applied at once and saved', async ({ alice }) => {
  const { page } = alice;
  await page.getByRole('button', { name: 'Settings' }).click();
  const menu = page.getByRole('group', { name: 'Settings' });
  await expect(menu.getByRole('radio')).toHaveCount(3);
  await expect(menu.getByRole('button')).toHaveText(['All settings…']);
  await menu.getByRole('button', { name: 'All settings…' }).click();

  const settings = new SettingsDialog(page);
  await expect(settings.dialog).toBeVisible();
  await expect(settings.dialog.getByRole('tab')).toHaveText(['Profile', 'Notifications', 'Language', 'Privacy', 'Blocked people', 'Your data']);
  await settings.show('Language');
  await expect(settings.panel.getByRole('radio', { name: 'English' })).toBeChecked();
  await settings.panel.getByRole('radio', { name: 'Français' }).click();

  // At once, in the dialog itself, which stays on the same section.
  const dialog = page.getByRole('dialog', { name: 'Paramètres' });
  await expect(dialog.getByRole('tab', { name: 'Langue' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByRole('radio', { name: 'Français' })).toBeChecked();
  await expect(dialog.getByRole('status').filter({ hasText: 'Langue enregistrée.' })).toBeVisible();
  expect((await readStorage(page)).locale).toBe('fr');
  // The server hears of it right after it is shown and stored (lib/lifecycle/user-language.ts).
  const saved = async () => ((await (await page.request.get('/api/accounts/info', { headers: { Authorization: alice.token } })).json()) as { language: string }).language;
  await expect.poll(saved).toBe('fr');
  await expect(page.getByRole('searchbox', { name: 'Rechercher des personnes' })).toBeAttached();
});

test('keyboard: the dialog opens on its tab, arrows move between sections, Escape closes and gives the focus back', async ({ alice }) => {
  const { page } = alice;
  const toggle = page.getByRole('button', { name: 'Settings' });
  await toggle.click();
  await page.getByRole('button', { name: 'All settings…' }).click();
  const settings = new SettingsDialog(page);
  const profileTab = settings.dialog.getByRole('tab', { name: 'Profile' });
  await expect(profileTab).toBeFocused();

  await page.keyboard.press('ArrowDown');
  await expect(settings.dialog.getByRole('tab', { name: 'Notifications' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(settings.dialog.getByRole('tab', { name: 'Language' })).toBeFocused();
  await expect(settings.panel.getByRole('group', { name: 'Language' })).toBeVisible();
  await page.keyboard.press('End');
  await expect(settings.dialog.getByRole('tab', { name: 'Your data' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(profileTab).toBeFocused();

  // Focus stays in the dialog: tabbing all the way round never reaches the page behind it.
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    expect(await settings.dialog.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  }

  await page.keyboard.press('Escape');
  await expect(settings.dialog).toBeHidden();
  await expect(toggle).toBeFocused();

  // Opened from the user's own name, it gives the focus back there.
  const own = page.getByRole('button', { name: /Edit your profile$/ });
  await own.click();
  await expect(settings.dialog).toBeVisible();
  await settings.dialog.getByRole('button', { name: 'Close' }).click();
  await expect(own).toBeFocused();
});

test('the report and block dialogs give the focus back to the button that opened them', async ({ alice, bob }) => {
  const { page } = alice;
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.thread(bob.person.name).getByRole('heading', { name: bob.person.name }).getByRole('button').click();
  const card = page.getByRole('region', { name: 'View profile' });

  const report = card.getByRole('button', { name: `Report ${bob.person.name}` });
  await report.click();
  const reportDialog = page.getByRole('dialog', { name: `Report ${bob.person.name}` });
  await expect(reportDialog).toBeVisible();
  await expect(reportDialog.getByRole('radio', { name: 'Spam' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(reportDialog).toBeHidden();
  await expect(report).toBeFocused();

  const block = card.getByRole('button', { name: `Block ${bob.person.name}` });
  await block.click();
  const blockDialog = page.getByRole('dialog', { name: `Block ${bob.person.name}?` });
  await blockDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(blockDialog).toBeHidden();
  await expect(block).toBeFocused();
});
