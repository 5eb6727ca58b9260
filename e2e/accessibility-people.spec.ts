// axe-core on the people and settings screens, light and dark, desktop and phone: search results,
// a person's card, the report and block dialogs, and every section of the settings (the photo
// framing view included). Zero violations allowed. Screenshots of each for reviewers.
import { png } from '../testing/png';
import { test, expect } from './fixtures';
import { SettingsDialog, type SettingsSectionName } from './pages/settings-dialog';
import { expectNoA11yViolations } from './support/axe';
import { DESKTOP, PHONE } from './support/people';
import { attachScreen } from './support/screens';

test.describe.configure({ timeout: 150_000 });

const LAYOUTS = { desktop: DESKTOP, phone: PHONE } as const;
const SECTIONS: SettingsSectionName[] = ['Profile', 'Notifications', 'Language', 'Privacy', 'Blocked people', 'Your data'];

for (const scheme of ['light', 'dark'] as const) {
  for (const [layout, options] of Object.entries(LAYOUTS)) {
    const label = `${layout}-${scheme}`;

    test(`no axe violations, ${layout}, ${scheme}: search, profile card, report and block, settings`, async ({ people }, testInfo) => {
      const alice = await people.signIn('alice', { ...options, colorScheme: scheme });
      const bob = await people.signIn('bob');
      const { page } = alice;
      await bob.chat.search(alice.person.name);
      await bob.chat.openFromSearch(alice.person.name);
      await bob.chat.send('Hello Alice');
      await expect(alice.chat.unreadCount).toHaveText('1');

      await alice.chat.searchBox.fill(bob.person.name);
      await expect(alice.chat.messageLink(bob.person.name)).toBeVisible();
      await alice.chat.searchSettled();
      await expectNoA11yViolations(page, testInfo, `search-${label}`);
      await attachScreen(page, testInfo, `search-${label}`);

      await alice.chat.messageLink(bob.person.name).click();
      const thread = alice.chat.thread(bob.person.name);
      await thread.getByRole('heading', { name: bob.person.name }).getByRole('button').click();
      const card = page.getByRole('region', { name: 'View profile' });
      await expect(card.getByText(/\d+ followers?/)).toBeVisible();
      await expectNoA11yViolations(page, testInfo, `profile-card-${label}`);
      await attachScreen(page, testInfo, `profile-${label}`);

      await card.getByRole('button', { name: `Report ${bob.person.name}` }).click();
      const report = page.getByRole('dialog', { name: `Report ${bob.person.name}` });
      await report.getByRole('radio', { name: 'Spam' }).check();
      await expectNoA11yViolations(page, testInfo, `report-${label}`);
      await attachScreen(page, testInfo, `report-${label}`);
      await report.getByRole('button', { name: 'Cancel' }).click();

      await card.getByRole('button', { name: `Block ${bob.person.name}` }).click();
      const block = page.getByRole('dialog', { name: `Block ${bob.person.name}?` });
      await expect(block).toBeVisible();
      await expectNoA11yViolations(page, testInfo, `block-${label}`);
      await attachScreen(page, testInfo, `block-${label}`);
      await block.getByRole('button', { name: 'Cancel' }).click();

      const settings = new SettingsDialog(page);
      await settings.open();
      for (const section of SECTIONS) {
        await settings.show(section);
        // Each section's content is there (lists and figures that load have loaded).
        if (section === 'Blocked people') await expect(settings.panel.getByText('You have not blocked anyone.')).toBeVisible();
        if (section === 'Your data') await expect(settings.panel.getByText(/used$/)).toBeVisible();
        const name = `settings-${section.toLowerCase().replace(' ', '-')}-${label}`;
        await expectNoA11yViolations(page, testInfo, name);
        await attachScreen(page, testInfo, name);
      }

      await settings.show('Profile');
      await settings.choosePhoto({ name: 'me.png', mimeType: 'image/png', buffer: png(500, 300) });
      await expect(settings.photoFrame).toBeVisible();
      await expectNoA11yViolations(page, testInfo, `settings-photo-${label}`);
      await attachScreen(page, testInfo, `settings-photo-${label}`);
    });
  }
}
