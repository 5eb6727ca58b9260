// Accessibility, measured by axe-core's rule suite (not by us): every screen a spec reaches can
// be checked for WCAG 2.1 A and AA violations. The full result is attached to the test on failure.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Runs axe on the page as it is now; fails with each violation's rule, impact and targets. A client
 * navigation that just happened may still be putting the document's <title> back (React hoists it
 * into <head> as it commits): that settles first, and a page whose title stays empty still fails.
 */
export async function expectNoA11yViolations(page: Page, testInfo: TestInfo, label: string): Promise<void> {
  await page.waitForFunction(() => document.title.trim() !== '', undefined, { timeout: 5_000 }).catch(() => undefined);
  // Legacy mode: one axe.run in the page. The default runs axe in each frame, then opens a blank
  // page in the person's context to merge the results there: a cold page and a second copy of
  // axe each time, 10–15 s of a loaded 2-core machine per check. Parley has no frames of other
  // origins, which are all that mode adds.
  const results = await new AxeBuilder({ page }).withTags(TAGS).setLegacyMode().analyze();
  const violations = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => `${node.target.join(' ')}${node.failureSummary ? ` (${node.failureSummary.replace(/\s+/g, ' ')})` : ''}`),
  }));
  if (violations.length > 0) {
    await testInfo.attach(`axe-${label}.json`, { body: JSON.stringify(violations, null, 2), contentType: 'application/json' });
  }
  // Soft: a test checks several screens and reports every one that fails, not just the first.
  expect.soft(violations, `axe: ${label}`).toEqual([]);
}

/** The same check in the light and the dark colour scheme (the pages follow prefers-color-scheme). */
export async function expectNoA11yViolationsLightAndDark(page: Page, testInfo: TestInfo, label: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoA11yViolations(page, testInfo, `${label}, ${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: null });
}
