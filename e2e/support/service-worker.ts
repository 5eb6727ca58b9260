import type { Page } from '@playwright/test';

/**
 * The origin's service worker has finished activating: what a push and a tab's hand-over go to,
 * whether or not it controls this page yet (its first install precaches the shell, which can take
 * a while on a busy machine).
 */
export async function workerActive(page: Page): Promise<void> {
  await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === 'activated', undefined, { timeout: 30_000 });
}

/**
 * The page is controlled by the active service worker, as an offline start needs. The worker
 * claims the pages open when it activates; one it did not take yet is controlled from its next
 * load, as any page opened after the install is.
 */
export async function workerControls(page: Page): Promise<void> {
  await workerActive(page);
  const controlled = () => page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 5_000 });
  await controlled().catch(async () => {
    await page.reload();
    await controlled();
  });
}
