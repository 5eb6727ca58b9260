import type { Page } from '@playwright/test';

export interface ScreenWatch {
  /** The sign-in heading was in the document at some point (the server renders it). */
  attached: boolean;
  /** Texts the sign-in heading was visible with, from the first parsed byte on. */
  shown: string[];
}

/**
 * Records every text the sign-in heading is visible with on the next loads, from the first byte
 * of the document on: after every DOM or attribute change and every frame, no timing involved.
 * The record lives in sessionStorage, so it survives the guard's client-side redirects.
 */
export async function watchSignInScreen(page: Page): Promise<() => Promise<ScreenWatch>> {
  await page.addInitScript(() => {
    const key = 'e2e-sign-in-screen';
    const watch: ScreenWatch = JSON.parse(sessionStorage.getItem(key) ?? '{"attached":false,"shown":[]}');
    const check = () => {
      const heading = document.getElementById('sign-in-title');
      if (!heading) return;
      watch.attached = true;
      const text = heading.textContent ?? '';
      if (heading.checkVisibility({ visibilityProperty: true, opacityProperty: true }) && !watch.shown.includes(text)) {
        watch.shown.push(text);
      }
      sessionStorage.setItem(key, JSON.stringify(watch));
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
    const frame = () => {
      check();
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  return () => page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e-sign-in-screen') ?? 'null') as ScreenWatch);
}
