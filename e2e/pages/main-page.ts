import { expect, type Locator, type Page } from '@playwright/test';

export class MainPage {
  readonly signedInUser: Locator;
  readonly signOutButton: Locator;

  constructor(readonly page: Page) {
    this.signedInUser = page.getByLabel('Signed in user');
    this.signOutButton = page.getByRole('button', { name: 'Sign out' });
  }

  async expectSignedInAs(name: string, options: { timeout?: number } = {}) {
    await expect(this.page).toHaveURL(/\/main$/, options);
    await expect(this.signedInUser).toContainText(name, options);
  }
}
