import { test, expect } from './fixtures';
import { expectNoA11yViolationsLightAndDark } from './support/axe';
import { recordCspViolations } from './support/csp';
import { routeGapi } from './support/gapi';
import { EMULATOR } from './support/requirements';
import { readStorage } from './support/storage';

// The sign-in screen itself, used as a person would: the test-account form and the emulator's
// provider popups, so only against deployments that trust the Auth emulator.

test('test account: signs in, stores the Bearer token and locale, lands on /main', { tag: EMULATOR }, async ({
  page,
  accountPage,
  mainPage,
  person,
}) => {
  await accountPage.goto();
  await accountPage.signInWithTestAccount(person.name, person.email);
  await mainPage.expectSignedInAs(person.name);
  await expect(mainPage.signedInUser).toContainText(person.email);

  const storage = await readStorage(page);
  expect(storage.token).toMatch(/^Bearer [A-Za-z0-9_-]{20,}$/);
  expect(storage.locale).toBe('en');
});

test('the same test account signs in as the same user again', { tag: EMULATOR }, async ({ page, signIn, accountsApi }) => {
  const first = await signIn();
  const info = async (token: string) =>
    (await page.request.get('/api/accounts/info', { headers: { Authorization: token } })).json();
  const firstUser = await info(first);
  await accountsApi.revoke(first);
  await page.evaluate(() => window.localStorage.removeItem('token'));

  const second = await signIn();
  expect(second).not.toBe(first);
  expect((await info(second)).id).toBe(firstUser.id);
});

for (const provider of [
  { name: 'Google', button: 'googleButton', providerLabel: 'Google.com' },
  { name: 'GitHub', button: 'githubButton', providerLabel: 'Github.com' },
] as const) {
  test(`${provider.name} button: signs in through the emulator's popup`, { tag: EMULATOR }, async ({
    page,
    context,
    accountPage,
    mainPage,
  }) => {
    // Firebase's gapi loader and the auth iframe must get through our CSP.
    const violations = await recordCspViolations(context);
    await routeGapi(context);
    await accountPage.goto();
    const popupPromise = page.waitForEvent('popup');
    await accountPage[provider.button].click();
    const popup = await popupPromise;
    await popup.waitForLoadState();

    await popup.getByRole('button', { name: 'Add new account' }).click();
    await popup.getByRole('button', { name: 'Auto-generate user information' }).click();
    const generatedName = await popup.getByLabel('Display name').inputValue();
    await popup.getByRole('button', { name: `Sign in with ${provider.providerLabel}`, exact: true }).click();

    await mainPage.expectSignedInAs(generatedName);
    expect((await readStorage(page)).token).toMatch(/^Bearer \S+$/);
    expect(violations).toEqual([]);
  });
}

test('a refused sign-in shows the server message to the user', { tag: EMULATOR }, async ({ page, signIn, accountsApi, accountPage, person }) => {
  const token = await signIn();
  await accountsApi.deactivate(token);
  await page.evaluate(() => window.localStorage.removeItem('token'));

  await accountPage.goto();
  await accountPage.signInWithTestAccount(person.name, person.email);
  await expect(accountPage.error).toHaveText('This account has been deactivated.');
  await expect(page).toHaveURL(/\/account$/);
  expect((await readStorage(page)).token).toBeNull();
});

test('in a French browser, a failed sign-in says why in French, never Firebase’s code; the new account then speaks French', { tag: EMULATOR }, async ({
  browser,
  person,
}, testInfo) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  const alert = page.getByRole('alert').filter({ hasText: /\S/ });
  const signInWithTestAccount = async () => {
    await page.getByLabel('Display name').fill(person.name);
    await page.getByLabel('Email').fill(person.email);
    await page.getByRole('button', { name: 'Sign in with test account' }).click();
  };
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Connectez-vous à Parley' })).toBeVisible();

  // The sign-in service has a fault of its own: Firebase says "auth/internal-error".
  const identityToolkit = '**/identitytoolkit.googleapis.com/**';
  await context.route(identityToolkit, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 500, message: 'INTERNAL_ERROR' } }) }),
  );
  await signInWithTestAccount();
  await expect(alert).toHaveText('Le service de connexion a rencontré un problème. Réessayez dans un instant.');
  await expectNoA11yViolationsLightAndDark(page, testInfo, 'sign-in error, fr-FR');

  // No answer at all: "auth/network-request-failed".
  await context.unroute(identityToolkit);
  await context.route(identityToolkit, (route) => route.abort());
  await signInWithTestAccount();
  await expect(alert).toHaveText('Impossible de joindre le service de connexion. Vérifiez votre connexion et réessayez.');

  // Back: the brand-new account starts in the language its sign-in screen was shown in.
  await context.unroute(identityToolkit);
  await signInWithTestAccount();
  await expect(page).toHaveURL(/\/main$/);
  await expect(page.getByRole('heading', { name: 'Messages', exact: true })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Rechercher des personnes' })).toBeVisible();
  expect((await readStorage(page)).locale).toBe('fr');
  await context.close();
});
