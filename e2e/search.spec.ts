// Searching as a new user types: the middle of a name, a name without its accents, never a part of
// an email; a word inside a link in a message, today's result by its time, the message it leads
// to marked in a colour that stands out in light and dark; a failed search that clears itself
// when the connection returns.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect, type SignedIn } from './fixtures';
import { expectNoA11yViolations } from './support/axe';
import { goOffline } from './support/network';

// Two people signed in, then searching, a conversation and a reload each: beyond the 30 s default.
test.describe.configure({ timeout: 150_000 });

/** Letters only (a word of its own in a name), unique to this test. */
const tag = () => randomBytes(4).toString('hex').replace(/\d/g, (digit) => 'ghijklmnop'[Number(digit)]!);

async function rename(person: SignedIn, username: string): Promise<void> {
  const response = await person.page.request.patch('/api/accounts/profile', { headers: { Authorization: person.token }, data: { username } });
  expect(response.status()).toBe(200);
}

/** WCAG's contrast ratio between two computed CSS colours (rgb() or rgba() with no transparency). */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = color.match(/[\d.]+/g)!.slice(0, 3).map((value) => {
      const channel = Number(value) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The marked message's ring colour, the page's background behind it, and the keyboard focus ring's colour. */
async function ringAndBackground(page: Page, messageId: number) {
  return page.locator(`[data-message-id="${messageId}"] > div`).first().evaluate((bubble) => {
    // The focus ring's colour as computed, to compare like with like.
    const probe = document.createElement('div');
    probe.style.color = 'var(--focus)';
    document.body.append(probe);
    const focus = getComputedStyle(probe).color;
    probe.remove();
    return {
      ring: getComputedStyle(bubble).outlineColor,
      width: getComputedStyle(bubble).outlineWidth,
      background: getComputedStyle(document.body).backgroundColor,
      focus,
    };
  });
}

test('people search finds the middle of a name and a name without its accents, and no part of an email', async ({ alice, bob }, testInfo) => {
  const unique = tag();
  const name = `Inés Núñez Okafor ${unique}`;
  await rename(bob, name);

  for (const query of [`kafor ${unique}`, `nunez ${unique}`, `NUNEZ OKAFOR ${unique}`]) {
    await alice.chat.searchBox.fill(query);
    await expect(alice.chat.searchResult(name), query).toBeVisible();
  }
  await alice.chat.searchSettled();
  await expectNoA11yViolations(alice.page, testInfo, 'people found by the middle of a name');

  // The email only whole: every shorter piece of it finds nobody.
  const email = bob.person.email;
  for (const part of [email.slice(0, -1), email.slice(email.indexOf('@') - 4)]) {
    await alice.chat.searchBox.fill(part);
    await expect(alice.page.getByText(`No one found for “${part}”.`), part).toBeVisible();
  }
  await alice.chat.searchBox.fill(email);
  await expect(alice.chat.searchResult(name)).toBeVisible();
});

test('while a newer people search loads, the older answer stays readable under a busy bar', async ({ alice, bob }, testInfo) => {
  await alice.chat.search(bob.person.name);
  // The next query's answer held until checked: the list on screen is the older one, marked busy.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await alice.page.route((url) => url.pathname === '/api/users/search', async (route) => {
    await held;
    await route.continue();
  });
  await alice.chat.searchBox.fill(`${bob.person.name} `);
  const busy = alice.chat.searchResults.locator('[aria-busy="true"]');
  await expect(busy).toHaveCount(1);
  await expect(alice.chat.searchResult(bob.person.name)).toBeVisible();
  expect(await busy.evaluate((list) => getComputedStyle(list).opacity)).toBe('1');
  await expectNoA11yViolations(alice.page, testInfo, 'people search loading again');
  release();
  await alice.chat.searchSettled();
});

test('message search finds a word inside a link, shows today’s result by its time, and marks the message it opens in light and dark', async ({ alice, bob }, testInfo) => {
  const unique = tag();
  const text = `Read https://www.wikipedia.org/wiki/Okapi_${unique} tonight`;
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.send(text);
  await expect(alice.chat.thread(bob.person.name).getByText('Sent', { exact: true })).toBeVisible();

  await bob.page.getByRole('button', { name: 'Search messages' }).click();
  const box = bob.page.getByRole('searchbox', { name: 'Search in your messages' });
  await box.fill(`wikipedia ${unique}`);
  const results = bob.page.getByRole('region', { name: 'Messages found' });
  const result = results.getByRole('button', { name: new RegExp(alice.person.name) }).filter({ hasText: unique });
  await expect(result).toBeVisible();
  await expect(result.locator('mark').first()).toHaveText('wikipedia');
  // Sent today: the time only ("3:07 PM"), not a date.
  const time = await result.locator('time').textContent();
  const sentAt = await result.locator('time').getAttribute('datetime');
  expect(time).toBe(await bob.page.evaluate((iso) => new Intl.DateTimeFormat('en', { timeStyle: 'short' }).format(new Date(iso)), sentAt!));
  await expectNoA11yViolations(bob.page, testInfo, 'message found by a word inside a link');

  await result.click();
  const thread = bob.chat.thread(alice.person.name);
  const bubble = thread.locator('[data-message-id]').filter({ hasText: unique });
  await expect(bubble).toHaveAttribute('data-highlighted', 'true');
  const id = Number(await bubble.getAttribute('data-message-id'));
  // Said, for those who cannot see the mark.
  await expect(bob.page.getByRole('status').filter({ hasText: `Message shown: ${alice.person.name}: ${text}` })).toBeAttached();
  const light = await ringAndBackground(bob.page, id);
  expect(light.width).toBe('3px');
  // Not the keyboard focus ring, which it would be taken for; and clear against the page.
  expect(light.ring).not.toBe(light.focus);
  expect(contrast(light.ring, light.background)).toBeGreaterThanOrEqual(3);
  await expectNoA11yViolations(bob.page, testInfo, 'message marked, light');
  // It goes after a moment.
  await expect(bubble).toHaveAttribute('data-highlighted', 'false', { timeout: 10_000 });

  // Dark: the same result again marks it again.
  await bob.page.emulateMedia({ colorScheme: 'dark' });
  await result.click();
  await expect(bubble).toHaveAttribute('data-highlighted', 'true');
  const dark = await ringAndBackground(bob.page, id);
  expect(dark.ring).not.toBe(dark.focus);
  expect(contrast(dark.ring, dark.background)).toBeGreaterThanOrEqual(3);
  await expectNoA11yViolations(bob.page, testInfo, 'message marked, dark');
});

test('a people search that failed offline clears itself and shows its results when the connection returns', async ({ alice, bob }) => {
  await goOffline(alice.context);
  await alice.chat.searchBox.fill(bob.person.name);
  const failed = alice.chat.searchResults.getByRole('alert');
  await expect(failed).toContainText('Search failed');
  await alice.context.setOffline(false);
  await expect(alice.chat.searchResult(bob.person.name)).toBeVisible({ timeout: 20_000 });
  await expect(failed).toHaveCount(0);
});
