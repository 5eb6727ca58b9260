import type { BrowserContext } from '@playwright/test';

/**
 * The network goes away for every page of `context`, and each page has heard it: the app drops
 * its realtime connection on the browser's `offline` event. Offline emulation does not close an
 * open WebSocket (it fails new requests only), so acting before the page has heard it could still
 * send over the old connection.
 */
export async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  for (const page of context.pages()) await page.waitForFunction(() => !navigator.onLine);
}
