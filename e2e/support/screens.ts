import type { Page, TestInfo } from '@playwright/test';

/** A screenshot for reviewers, attached to the test (and kept in its output folder). */
export async function attachScreen(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}
