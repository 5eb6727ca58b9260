import { expect, type Locator, type Page } from '@playwright/test';

/** The image viewer (a thumbnail in a thread opens it): a modal dialog named by the image shown. */
export class ImageViewerPage {
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    // The one dialog with the viewer's controls, whatever image it shows.
    this.dialog = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Zoom in' }) });
  }

  /** The viewer showing `name`, at `position` ("2 of 3"). */
  async expectShowing(name: string, position: string) {
    await expect(this.page.getByRole('dialog', { name })).toBeVisible();
    await expect(this.dialog.getByText(position, { exact: true })).toBeVisible();
    const image = this.dialog.getByRole('img', { name: `Image: ${name}` });
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  }

  get zoom(): Locator {
    return this.dialog.getByRole('status');
  }

  image(name: string): Locator {
    return this.dialog.getByRole('img', { name: `Image: ${name}` });
  }
}
