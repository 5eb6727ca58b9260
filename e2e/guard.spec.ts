import { test, expect } from './fixtures';
import { SMOKE } from './support/requirements';
import { readStorage } from './support/storage';

// "/account with a stored token goes to /main without ever showing the sign-in screen" is in
// first-paint.spec.ts: the server renders that screen now, so the check watches every frame.

test('a revoked token (401) ends at /account with the token gone and the locale kept', async ({
  page,
  signIn,
  accountsApi,
  accountPage,
}) => {
  const token = await signIn();
  await accountsApi.revoke(token);

  await page.reload();
  await expect(page).toHaveURL(/\/account$/);
  await expect(accountPage.heading).toBeVisible();
  expect(await readStorage(page)).toEqual({ token: null, locale: 'en' });
});

test('a deactivated user ends at /account, signed out', async ({ page, signIn, accountsApi, accountPage }) => {
  const token = await signIn();
  await accountsApi.deactivate(token);

  await page.goto('/main');
  await expect(page).toHaveURL(/\/account$/);
  await expect(accountPage.heading).toBeVisible();
  expect(await readStorage(page)).toEqual({ token: null, locale: 'en' });
});

test('sign-out removes only the token, revokes the session and returns to /account', async ({
  page,
  signIn,
  mainPage,
  accountPage,
}) => {
  const token = await signIn();
  await mainPage.signOutButton.click();

  await expect(page).toHaveURL(/\/account$/);
  await expect(accountPage.heading).toBeVisible();
  expect(await readStorage(page)).toEqual({ token: null, locale: 'en' });
  const info = await page.request.get('/api/accounts/info', { headers: { Authorization: token } });
  expect(info.status()).toBe(401);
});

test('the signed-in screen opens an authenticated socket and shows the unread count', { tag: SMOKE }, async ({ alice }) => {
  const { page } = alice;
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toHaveAttribute('data-state', 'connected');
  await expect(page.getByTestId('unread-count')).toHaveText('0');
});

test('a load of /main asks for the user and the list once each, started by the page itself and handed to the app', async ({ alice }) => {
  const { page } = alice;
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/accounts/info' || url.pathname === '/api/c') asked.push(`${url.pathname}${url.search}`);
  });
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toHaveAttribute('data-state', 'connected');
  await expect(page.getByTestId('unread-count')).toHaveText('0');
  expect(asked.sort()).toEqual(['/api/accounts/info', '/api/c']);
  // Both answers were taken over by the app's client (lib/api/early-requests.ts).
  const left = await page.evaluate(() => Object.keys((window as { __parleyEarly?: { responses: object } }).__parleyEarly?.responses ?? { missing: true }));
  expect(left).toEqual([]);
});

test('a load of /main connects once its list is on screen: the connection’s code and handshake come after the list', async ({ alice, bob }) => {
  await bob.chat.search(alice.person.name);
  await bob.chat.openFromSearch(alice.person.name);
  await bob.chat.send('Hello Alice');
  const { page } = alice;
  await expect(alice.chat.unreadCount).toHaveText('1');
  // The moment the list first shows a row, on the page's own clock (checked every frame).
  await page.addInitScript(() => {
    const check = () => {
      if (document.querySelector('nav[aria-label="Messages"] [data-row]')) (window as { __listAt?: number }).__listAt = performance.now();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toHaveAttribute('data-state', 'connected');
  const { listAt, socketAt } = await page.evaluate(() => ({
    listAt: (window as { __listAt?: number }).__listAt ?? null,
    socketAt: performance.getEntriesByType('resource').find((entry) => new URL(entry.name).pathname.startsWith('/socket.io/'))?.startTime ?? null,
  }));
  expect(listAt).not.toBeNull();
  expect(socketAt).not.toBeNull();
  expect(socketAt!).toBeGreaterThan(listAt!);
});
