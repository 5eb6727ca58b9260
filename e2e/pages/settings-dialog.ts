import { expect, type Locator, type Page } from '@playwright/test';

export type SettingsSectionName = 'Profile' | 'Notifications' | 'Language' | 'Privacy' | 'Blocked people' | 'Your data';

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

  /** From the header: the user's own face and name open the Profile section. */
  async openProfile() {
    await this.page.getByRole('button', { name: /Edit your profile$/ }).click();
    await expect(this.dialog).toBeVisible();
    await expect(this.dialog.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  }

  get nameInput(): Locator {
    return this.dialog.getByLabel('Display name');
  }

  async saveName(name: string) {
    await this.nameInput.fill(name);
    await this.dialog.getByRole('button', { name: 'Save name' }).click();
    await expect(this.dialog.getByRole('status').filter({ hasText: 'Name saved.' })).toBeVisible();
  }

  /** Chooses a picture (the hidden file input behind "Add a photo"/"Change photo"): the framing view opens. */
  async choosePhoto(file: { name: string; mimeType: string; buffer: Buffer }) {
    await this.dialog.getByLabel('Choose a photo').setInputFiles(file);
  }

  get photoFrame(): Locator {
    return this.dialog.getByRole('group', { name: 'Photo framing' });
  }

  async savePhoto() {
    await this.dialog.getByRole('button', { name: 'Save photo' }).click();
    await expect(this.dialog.getByRole('status').filter({ hasText: 'Photo saved.' })).toBeVisible();
  }

  blockedList(): Locator {
    return this.dialog.getByRole('list', { name: 'Blocked people' });
  }
}
