// Reflow (WCAG 1.4.10) and a frame that never moves. On a phone 320 and 390 px wide, in English,
// Spanish and French, light and dark, the conversation list and a crowded conversation (a long
// name, the mute bell, Follow, "Seen", "Message deleted", a refusal with its reason and "Remove",
// the composer focused) must fit the window: no element's box past its edges, no sideways or
// vertical scrolling of the page.
// On a desktop the page is exactly the window: a wheel over the header or a jump moves nothing.
import { test, expect } from './fixtures';
import { expectNoA11yViolations } from './support/axe';
import { LANGUAGES, TEXTS, switchLanguage, type Language } from './support/languages';
import { DESKTOP, PHONE } from './support/people';
import { crowdedConversation, layoutProblems } from './support/reflow';
import { attachScreen } from './support/screens';

// Two people signed in through the form and 24 screens measured: room for a busy machine.
test.describe.configure({ timeout: 300_000 });

const PHONES = [
  { width: 320, height: 568 },
  { width: 390, height: 844 },
];
const SCHEMES = ['light', 'dark'] as const;

test('a phone conversation and the list fit 320 and 390 px in every language, light and dark', async ({ browser }, testInfo) => {
  const { viewer, peerName } = await crowdedConversation(browser, PHONE);
  const { page } = viewer;
  const peerButton = page.getByRole('main').getByRole('button', { name: new RegExp(`^${peerName.name}`) });
  let shown: Language = 'en';
  for (const language of LANGUAGES) {
    await switchLanguage(page, shown, language);
    shown = language;
    const texts = TEXTS[language];
    const composer = page.getByRole('textbox', { name: texts.composer.label, exact: true });
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme });
      for (const size of PHONES) {
        const label = `${language}, ${colorScheme}, ${size.width} px`;
        await page.setViewportSize(size);
        await expect(page.getByRole('button', { name: texts.thread.removeFailed, exact: true })).toBeVisible();
        await composer.focus();
        await expect(composer).toBeFocused();
        expect.soft(await layoutProblems(page), `${label}: the conversation`).toEqual([]);
        if (language === 'en' && size.width === 390) {
          await expectNoA11yViolations(page, testInfo, `phone-conversation-${colorScheme}`);
          await attachScreen(page, testInfo, `phone-conversation-${colorScheme}`);
        }

        await page.getByRole('button', { name: texts.header.backToConversations, exact: true }).click();
        await expect(peerButton).toBeVisible();
        expect.soft(await layoutProblems(page), `${label}: the list`).toEqual([]);
        if (language === 'en' && size.width === 390) await expectNoA11yViolations(page, testInfo, `phone-list-${colorScheme}`);
        await peerButton.click();
        await expect(composer).toBeVisible();
      }
    }
  }
});

test('the phone header’s icons keep their size on a fresh load', async ({ people }) => {
  const alice = await people.signIn('alice', PHONE);
  await alice.page.reload();
  await expect(alice.main.signOutButton).toBeVisible({ timeout: 30_000 });
  const icon = await alice.main.signOutButton.locator('svg').boundingBox();
  expect(icon).toMatchObject({ width: 18, height: 18 });
  expect(await layoutProblems(alice.page)).toEqual([]);
});

test('the conversation list’s spinner waits in the middle of the phone, away from its edges', async ({ people }) => {
  const alice = await people.signIn('alice', PHONE);
  // The list's first page held until measured: the spinner stays.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await alice.page.route((url) => url.pathname === '/api/c', async (route) => {
    await held;
    await route.continue();
  });
  await alice.page.reload();
  const spinner = alice.page.getByRole('main').getByRole('status');
  await expect(spinner).toBeVisible({ timeout: 30_000 });
  const box = (await spinner.boundingBox({ timeout: 5_000 }))!;
  const window = alice.page.viewportSize()!;
  // Its own box, not the turning ring's: the same wherever the ring is in its turn.
  expect(Math.abs(box.x + box.width / 2 - window.width / 2)).toBeLessThan(2);
  expect(box.x).toBeGreaterThan(16);
  release();
  await expect(spinner).toBeHidden();
});

test('the desktop page is exactly the window: a wheel over the header or a jump to a message moves nothing', async ({ browser }, testInfo) => {
  const { viewer } = await crowdedConversation(browser, DESKTOP);
  const { page } = viewer;
  const header = page.getByRole('banner').first();
  const frame = async () => ({ ...(await page.evaluate(() => ({ scrollX: window.scrollX, scrollY: window.scrollY }))), top: (await header.boundingBox())?.y });
  expect(await layoutProblems(page)).toEqual([]);

  await header.hover();
  await page.mouse.wheel(0, 300);
  // A jump brings a message into view the way the browser does for focus and links.
  await page.locator('[data-message-id]').first().evaluate((message) => message.scrollIntoView({ block: 'end' }));
  await page.locator('[data-message-id]').last().evaluate((message) => message.scrollIntoView({ block: 'start' }));
  expect(await frame()).toEqual({ scrollX: 0, scrollY: 0, top: 0 });
  expect(await layoutProblems(page)).toEqual([]);

  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    await expectNoA11yViolations(page, testInfo, `desktop-conversation-${colorScheme}`);
    await attachScreen(page, testInfo, `desktop-conversation-${colorScheme}`);
  }
});
