// /account's server HTML is the sign-in screen itself, so it paints before any script.
// The server knows neither the token nor the locale: the document's first-paint script hides the
// screen for a signed-in visitor (the guard rule) and until another stored language is in.
import { test, expect } from './fixtures';
import { expectNoA11yViolationsLightAndDark } from './support/axe';
import { watchSignInScreen } from './support/first-paint';
import { readStorage } from './support/storage';

test("/account's server HTML is the sign-in screen, not a spinner", async ({ request }) => {
  const html = await (await request.get('/account')).text();
  expect(html).toContain('Sign in to Parley');
  expect(html).toContain('Continue with Google');
});

test('a visitor without a token sees the screen, and it stays up', async ({ page, accountPage }) => {
  const watched = await watchSignInScreen(page);
  await accountPage.goto();
  await page.waitForLoadState('networkidle');
  await expect(accountPage.heading).toBeVisible();
  expect(await watched()).toEqual({ attached: true, shown: ['Sign in to Parley'] });
});

test('with a stored token the server-rendered screen is never visible, and /main follows', async ({
  page,
  signIn,
  mainPage,
  person,
}) => {
  await signIn();
  const watched = await watchSignInScreen(page);
  await page.goto('/account');
  await mainPage.expectSignedInAs(person.name);
  // Attached (the server rendered it), yet never shown, not even for one frame.
  expect(await watched()).toEqual({ attached: true, shown: [] });
});

test('a stored Spanish locale shows the screen in Spanish only, never English first', async ({ page, context }) => {
  await context.addInitScript(() => window.localStorage.setItem('locale', 'es'));
  const watched = await watchSignInScreen(page);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Inicia sesión en Parley' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  expect(await watched()).toEqual({ attached: true, shown: ['Inicia sesión en Parley'] });
});

for (const { locale, heading, lang } of [
  { locale: 'fr-FR', heading: 'Connectez-vous à Parley', lang: 'fr' },
  { locale: 'es-ES', heading: 'Inicia sesión en Parley', lang: 'es' },
]) {
  test(`a first visit from a ${locale} browser shows the screen in its language only, never English first`, async ({ browser }, testInfo) => {
    // Two axe runs (light and dark) on a cold page: more than the default on a 2-core machine.
    test.setTimeout(90_000);
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    const watched = await watchSignInScreen(page);
    await page.goto('/account');
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    expect(await watched()).toEqual({ attached: true, shown: [heading] });
    // The browser's language is not the user's until a sign-in says so: nothing is stored.
    expect((await readStorage(page)).locale).toBeNull();
    await expectNoA11yViolationsLightAndDark(page, testInfo, `sign-in screen, ${locale}`);
    await context.close();
  });
}

test('a stored locale wins over the browser’s language', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  await context.addInitScript(() => window.localStorage.setItem('locale', 'en'));
  const page = await context.newPage();
  const watched = await watchSignInScreen(page);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
  expect(await watched()).toEqual({ attached: true, shown: ['Sign in to Parley'] });
  await context.close();
});

test('signing out returns to a visible sign-in screen (the first-paint mark is cleared)', async ({
  page,
  signIn,
  mainPage,
  accountPage,
}) => {
  await signIn();
  // A load of /account while signed in sets the mark; sign-out must not leave the screen hidden.
  await page.goto('/account');
  await expect(page).toHaveURL(/\/main$/);
  await mainPage.signOutButton.click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(accountPage.heading).toBeVisible();
});
