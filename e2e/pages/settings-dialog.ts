import { expect, type Locator, type Page } from '@playwright/test';

export type SettingsSectionName = 'Profile' | 'Language' | 'Privacy' | 'Blocked people' | 'Your data';

/** Settings (the header's "Settings" menu → "All settings…"): a tab per section. */
export class SettingsDialog {
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Settings' });
  }

  /** Through the settings menu, then to `section` (the dialog opens on Profile). */
  async open(section: SettingsSectionName = 'Profile') {
    await this.page.getByRole('button', { name: 'Settings' }).click();
    await this.page.getByRole('button', { name: 'All settings…' }).click();
    await expect(this.dialog).toBeVisible();
    await this.show(section);
  }

  async show(section: SettingsSectionName) {
    const tab = this.dialog.getByRole('tab', { name: section });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
  }

  /** The section shown. */
  get panel(): Locator {
    return this.dialog.getByRole('tabpanel');
  }

  async close() {
    await this.dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(this.dialog).toBeHidden();
  }

  async setWhoCanMessage(choice: 'Everyone' | 'People I follow' | 'Nobody') {
    await this.show('Privacy');
    const option = this.dialog.getByRole('radio', { name: choice });
    await option.check();
    await expect(option).toBeChecked();
    await expect(this.dialog.getByRole('group', { name: 'Who can message me' })).not.toHaveAttribute('aria-busy', 'true');
  }

  blockedList(): Locator {
    return this.dialog.getByRole('list', { name: 'Blocked people' });
  }
}
