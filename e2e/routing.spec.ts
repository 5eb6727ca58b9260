import { test, expect } from './fixtures';
import { EMULATOR, SMOKE } from './support/requirements';

test.describe('routes without a token', () => {
  for (const path of ['/anything', '/', '/accounts', '/main', '/main/deeper/path']) {
    test(`${path} lands on /account`, { tag: SMOKE }, async ({ page, accountPage }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/account$/);
      await expect(accountPage.heading).toBeVisible();
    });
  }
});

test('the sign-in screen loads no Firebase code until sign-in starts', { tag: EMULATOR }, async ({ page, accountPage, person }) => {
  const scripts: Promise<string>[] = [];
  page.on('response', (response) => {
    // A script still arriving when the test ends (a chunk prefetched on hover) is not an error.
    if (response.request().resourceType() === 'script') scripts.push(response.text().catch(() => ''));
  });
  // identitytoolkit is the Firebase Auth REST host: present in the SDK, nowhere else in our code.
  const firebaseLoaded = async () =>
    (await Promise.all(scripts)).some((source) => source.includes('identitytoolkit'));

  await accountPage.goto();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(await firebaseLoaded()).toBe(false);

  await accountPage.signInWithTestAccount(person.name, person.email);
  await expect(page).toHaveURL(/\/main$/);
  expect(await firebaseLoaded()).toBe(true);
});
