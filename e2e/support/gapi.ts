import { fileURLToPath } from 'node:url';
import type { BrowserContext, Route } from '@playwright/test';

/**
 * Offline support for Firebase `signInWithPopup` against the Auth emulator.
 *
 * Even in emulator mode the Firebase web SDK (and the emulator's own helper iframe)
 * load https://apis.google.com/js/api.js to get `gapi.iframes`; offline that fails
 * with `auth/internal-error`. We serve a local stand-in (gapi-stand-in.js) instead.
 * The emulator's sign-in popup also pulls Material CSS/JS and fonts from unpkg.com
 * and fonts.googleapis.com; we answer those with empty bodies so the popup never
 * waits on the network (the popup works fine without them).
 *
 * Routes are installed on the context (not the page) because the emulator iframe
 * and the popup window both need them.
 */

/** Absolute path of the browser-side gapi stand-in. */
const GAPI_STAND_IN_PATH = fileURLToPath(new URL('./gapi-stand-in.js', import.meta.url));

/** Serves the stand-in for api.js (and the other gapi loader entry points, should anything ask). */
const GAPI_LOADER_URLS = ['https://apis.google.com/js/api.js**', 'https://apis.google.com/js/platform.js**', 'https://apis.google.com/js/client.js**'];

/** CDN assets referenced by the emulator's /emulator/auth/handler page. */
const EMULATOR_WIDGET_ASSET_URLS = ['https://unpkg.com/**', 'https://fonts.googleapis.com/**', 'https://fonts.gstatic.com/**'];

async function fulfillGapi(route: Route): Promise<void> {
  await route.fulfill({ status: 200, contentType: 'text/javascript', path: GAPI_STAND_IN_PATH });
}

async function fulfillEmpty(route: Route): Promise<void> {
  const url = route.request().url();
  const contentType = /\.js(\?|$)/.test(url) ? 'text/javascript' : url.includes('fonts.gstatic.com') ? 'font/woff2' : 'text/css';
  await route.fulfill({ status: 200, contentType, body: '' });
}

/** Answer anything else on apis.google.com with a fast failure instead of a network timeout. */
async function abortRoute(route: Route): Promise<void> {
  await route.abort('internetdisconnected');
}

/**
 * Make Firebase popup sign-in work offline against the Auth emulator.
 * Call before the page loads the app (e.g. in a fixture or `beforeEach`).
 */
export async function routeGapi(context: BrowserContext): Promise<void> {
  // Registered first = matched last: Playwright tries the most recently added route first.
  await context.route('https://apis.google.com/**', abortRoute);
  for (const url of GAPI_LOADER_URLS) await context.route(url, fulfillGapi);
  for (const url of EMULATOR_WIDGET_ASSET_URLS) await context.route(url, fulfillEmpty);
}
