import type { BrowserContext, Page } from '@playwright/test';

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

/**
 * A slow server for the signed-in area's pages: every request for one (a document, or the
 * router's data for a route) waits `ms` before it goes out. API calls and the socket are not
 * slowed.
 */
export async function slowPages(page: Page, ms: number): Promise<void> {
  await page.route(
    (url) => url.pathname === '/main' || url.pathname.startsWith('/main/'),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await route.fallback();
    },
  );
}
