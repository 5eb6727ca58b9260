// How messages sit in a conversation: a run from one person close together, each message's
// actions beside it on hover or keyboard focus (a long press on a touch screen, with no "⋯" under
// every message), and a very long message shortened with "Read more" / "Show less".
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { ThreadPage } from './pages/thread-page';
import { expectNoA11yViolations } from './support/axe';
import { switchLanguage, TEXTS } from './support/languages';
import { PHONE } from './support/people';

// Two people and several screens: room for a busy machine.
test.describe.configure({ timeout: 180_000 });

/** How opaque the element is drawn: its own opacity times each ancestor's. */
const drawnOpacity = (element: Locator) =>
  element.evaluate((node) => {
    let opacity = 1;
    for (let at: Element | null = node; at; at = at.parentElement) opacity *= Number(getComputedStyle(at).opacity);
    return opacity;
  });

/** How wide the element shows: its box cut by every ancestor that clips, 0 when drawn transparent. */
const shownWidth = (element: Locator) =>
  element.evaluate((node) => {
    let { left, right } = node.getBoundingClientRect();
    for (let at: Element | null = node; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (Number(style.opacity) === 0) return 0;
      if (at !== node && style.overflowX !== 'visible') {
        const box = at.getBoundingClientRect();
        left = Math.max(left, box.left);
        right = Math.min(right, box.right);
      }
    }
    return Math.max(0, right - left);
  });

/** A message's bubble (what is drawn), by its text. */
const bubble = (thread: Locator, text: string) => thread.locator('[data-own]').filter({ hasText: text }).locator('[data-deleted]');

test('a run of messages sits 2–4 px apart; the actions show on hover and on keyboard focus', async ({ alice, bob }) => {
  await bob.chat.search(alice.person.name);
  await bob.chat.openFromSearch(alice.person.name);
  for (const text of ['One', 'Two', 'Three']) await bob.chat.send(text);
  await alice.chat.openConversation(bob.person.name);
  const thread = alice.chat.thread(bob.person.name);

  const boxes = [];
  for (const text of ['One', 'Two', 'Three']) boxes.push((await bubble(thread, text).boundingBox())!);
  for (const [index, box] of boxes.slice(1).entries()) {
    const gap = box.y - (boxes[index]!.y + boxes[index]!.height);
    expect(gap, `between message ${index + 1} and ${index + 2}`).toBeGreaterThanOrEqual(2);
    expect(gap, `between message ${index + 1} and ${index + 2}`).toBeLessThanOrEqual(4);
  }

  // Out of sight until the message is hovered.
  const actions = alice.chat.message(bob.person.name, 'Two').getByRole('button', { name: 'Message actions' });
  await alice.page.mouse.move(0, 0);
  await expect.poll(() => drawnOpacity(actions)).toBe(0);
  await bubble(thread, 'Two').hover();
  await expect.poll(() => drawnOpacity(actions)).toBe(1);
  await alice.page.mouse.move(0, 0);
  await expect.poll(() => drawnOpacity(actions)).toBe(0);

  // From the keyboard: Tab from the list reaches the first message's actions, which show.
  await new ThreadPage(alice.page, bob.person.name).scroller.focus();
  await alice.page.keyboard.press('Tab');
  const first = alice.chat.message(bob.person.name, 'One').getByRole('button', { name: 'Message actions' });
  await expect(first).toBeFocused();
  await expect.poll(() => drawnOpacity(first)).toBe(1);
  await alice.page.keyboard.press('Enter');
  await expect(alice.page.getByRole('menuitem', { name: 'React with 👍' })).toBeFocused();
  await alice.page.keyboard.press('Enter');
  await expect(alice.chat.message(bob.person.name, 'One').getByRole('button', { name: /^👍 1: You\./ })).toBeVisible();
  await expect(first).toBeFocused();
});

/** A finger held on the element, through Chromium's touch input (pointer events of type touch). */
async function longPress(page: Page, target: Locator, menu: Locator) {
  const box = (await target.boundingBox())!;
  const point = { x: box.x + 12, y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  // Still held: the menu opens under the finger, not on release.
  await expect(menu).toBeVisible();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('on a phone a long press opens a message’s actions; no "⋯" shows under the messages', async ({ people, bob }, testInfo) => {
  const alice = await people.signIn('alice', PHONE);
  await bob.chat.search(alice.person.name);
  await bob.chat.openFromSearch(alice.person.name);
  await bob.chat.send('Hold me');
  await bob.chat.send('And me');
  await alice.chat.openConversation(bob.person.name);
  const thread = alice.chat.thread(bob.person.name);
  await expect(bubble(thread, 'And me')).toBeVisible();

  expect(await alice.page.evaluate(() => matchMedia('(hover: none)').matches), 'a touch screen').toBe(true);
  for (const button of await thread.getByRole('button', { name: 'Message actions' }).all()) {
    expect(await shownWidth(button), 'a "⋯" on the screen').toBeLessThanOrEqual(1);
  }

  const menu = alice.page.getByRole('menu', { name: 'Message actions' });
  await longPress(alice.page, bubble(thread, 'Hold me'), menu);
  await expectNoA11yViolations(alice.page, testInfo, 'phone-long-press-menu');
  await menu.getByRole('menuitem', { name: 'React with ❤️' }).tap();
  await expect(alice.chat.message(bob.person.name, 'Hold me').getByRole('button', { name: /^❤️ 1: You\./ })).toBeVisible();
  await expect(menu).toBeHidden();

  // A keyboard (or a screen reader) still reaches each message's actions, seen while focused.
  const actions = alice.chat.message(bob.person.name, 'And me').getByRole('button', { name: 'Message actions' });
  await actions.focus();
  expect(await shownWidth(actions)).toBeGreaterThan(20);
});

const LONG = Array.from({ length: 40 }, (_, line) => `Line ${line + 1} of the minutes, with enough words to fill it.`).join('\n');

test('a very long message shows shortened with "Read more" and "Show less", by keyboard, in every language; the list still scrolls end to end', async ({ alice, bob }, testInfo) => {
  await bob.chat.search(alice.person.name);
  await bob.chat.openFromSearch(alice.person.name);
  await bob.chat.send(LONG);
  await bob.chat.send('After the minutes');
  await alice.chat.openConversation(bob.person.name);

  const languages = ['en', 'es', 'fr'] as const;
  for (const [index, language] of languages.entries()) {
    await switchLanguage(alice.page, languages[index - 1] ?? 'en', language);
    const { readMore, showLess, beginning, title } = TEXTS[language].thread;
    const region = alice.page.getByRole('region', { name: title.replace('{{name}}', bob.person.name) });
    const scroller = region.locator('[data-virtuoso-scroller]');
    const scrollTo = (where: 'top' | 'end', shown: Locator) =>
      // The list measures what it renders as it goes: scroll again until the end is on screen.
      expect(async () => {
        await scroller.evaluate((element, top) => element.scrollTo({ top: top === 'top' ? 0 : element.scrollHeight }), where);
        await expect(shown).toBeInViewport({ timeout: 1_000 });
      }).toPass();
    const long = bubble(region, 'Line 1 of the minutes');
    const more = region.getByRole('button', { name: readMore, exact: true });
    const less = region.getByRole('button', { name: showLess, exact: true });

    await expect(more).toHaveAttribute('aria-expanded', 'false');
    // Twelve lines of 24 px and the toggle, not forty lines.
    expect((await long.boundingBox())!.height).toBeLessThan(400);

    await more.focus();
    await alice.page.keyboard.press('Enter');
    await expect(less).toHaveAttribute('aria-expanded', 'true');
    await expect.poll(async () => (await long.boundingBox())!.height).toBeGreaterThan(900);
    if (language === 'en') await expectNoA11yViolations(alice.page, testInfo, 'long-message-open');

    // The virtualised list measures the taller message: both ends are still reached.
    await scrollTo('end', region.getByText('After the minutes'));
    await scrollTo('top', region.getByText(beginning.replace('{{name}}', bob.person.name)));
    await scrollTo('end', less);

    await less.focus();
    await alice.page.keyboard.press('Space');
    await expect(more).toBeInViewport();
    await expect(more).toBeFocused();
  }
});
