import { expect, type Locator, type Page } from '@playwright/test';

export class AccountPage {
  readonly heading: Locator;
  readonly googleButton: Locator;
  readonly githubButton: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Sign in to Parley' });
    this.googleButton = page.getByRole('button', { name: 'Continue with Google' });
    this.githubButton = page.getByRole('button', { name: 'Continue with GitHub' });
    // Next's route announcer is an empty alert too; ours is the one with text.
    this.error = page.getByRole('alert').filter({ hasText: /\S/ });
  }

  async goto(options: { timeout?: number } = {}) {
    await this.page.goto('/account', options);
    await expect(this.heading).toBeVisible(options);
  }

  async signInWithTestAccount(displayName: string, email: string) {
    await this.page.getByLabel('Display name').fill(displayName);
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByRole('button', { name: 'Sign in with test account' }).click();
  }
}
