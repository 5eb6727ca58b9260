// /account's server HTML is the sign-in screen itself, so it paints before any script.
// The server knows neither the token nor the locale: the document's first-paint script hides the
// screen for a signed-in visitor (the guard rule) and until another stored language is in.
import { test, expect } from './fixtures';
import { watchSignInScreen } from './support/first-paint';

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
