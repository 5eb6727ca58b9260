// The browser the end-to-end suite drives, shared by playwright.config.ts and test-setup.mjs.
//
// Debian's chromium-headless-shell first: Chromium's headless-only build, which is what Playwright
// itself runs for headless tests. Debian's full /usr/bin/chromium in headless mode is the whole
// browser without a window, and a cold /main load costs it about 40 % more CPU (the renderer about
// twice as much): on a 2-core machine the heaviest specs ran 1.4× slower in it (docs/DECISIONS.md,
// "A fresh machine's end-to-end run"). Then the full Chromium, then Playwright's
// own download (undefined: Playwright picks its headless shell itself). The shell shows no
// notifications, so the notifications spec keeps the full Chromium (playwright.config.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';

export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const FULL_CHROMIUM = '/usr/bin/chromium';

/** The full Chromium under `root` (the specs that need notifications), or undefined for Playwright's own. */
export function fullChromium({ root = '/' } = {}) {
  const file = path.join(root, FULL_CHROMIUM);
  return existsSync(file) ? file : undefined;
}

/**
 * The Chromium executable for the suite under `root`, or undefined for Playwright's own. A headed
 * run (--headed, --debug, PWDEBUG) needs a window: the full Chromium.
 */
export function e2eChromium({ root = '/', headed = false } = {}) {
  const files = headed ? [FULL_CHROMIUM] : [HEADLESS_SHELL, FULL_CHROMIUM];
  return files.map((file) => path.join(root, file)).find((file) => existsSync(file));
}
