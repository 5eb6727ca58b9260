import { expect, type Locator, type Page } from '@playwright/test';

/** Settings → Notifications, privacy and account: who can message me, blocked people, my data, deleting the account. */
export class PrivacyDialog {
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Notifications, privacy and account' });
  }

  async open() {
    await this.page.getByRole('button', { name: 'Settings' }).click();
    await this.page.getByRole('button', { name: 'Notifications, privacy and account…' }).click();
    await expect(this.dialog).toBeVisible();
  }

  async close() {
    await this.dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(this.dialog).toBeHidden();
  }

  async setWhoCanMessage(choice: 'Everyone' | 'People I follow' | 'Nobody') {
    const option = this.dialog.getByRole('radio', { name: choice });
    await option.check();
    await expect(option).toBeChecked();
    await expect(this.dialog.getByRole('group', { name: 'Who can message me' })).not.toHaveAttribute('aria-busy', 'true');
  }

  blockedList(): Locator {
    return this.dialog.getByRole('list', { name: 'Blocked people' });
  }
}
