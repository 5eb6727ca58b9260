import { expect, type Locator, type Page } from '@playwright/test';

/** The open conversation: its messages, the virtualised scroller, the jump button, the composer. */
export class ThreadPage {
  readonly region: Locator;
  readonly scroller: Locator;
  readonly composer: Locator;
  readonly jumpButton: Locator;

  constructor(
    readonly page: Page,
    readonly peerName: string,
  ) {
    this.region = page.getByRole('region', { name: `Conversation with ${peerName}` });
    this.scroller = this.region.locator('[data-virtuoso-scroller]');
    this.composer = this.region.getByRole('textbox', { name: 'Message' });
    this.jumpButton = this.region.getByRole('button', { name: /^Jump to latest/ });
  }

  message(text: string): Locator {
    return this.region.getByText(text, { exact: true });
  }

  /** Scrolls to the oldest message shown, far from the newest. */
  async scrollToTop() {
    await this.scroller.evaluate((element) => element.scrollTo({ top: 0 }));
    await expect(this.jumpButton).toBeVisible();
  }

  async send(text: string) {
    await this.composer.fill(text);
    await this.composer.press('Enter');
  }
}
