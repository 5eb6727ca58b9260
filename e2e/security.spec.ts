// The pages keep the session token in localStorage (docs/CLIENT-RULES.md), so no injected script may run:
// the CSP with a per-request nonce, the security headers, and message text shown as text.
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { AccountPage } from './pages/account-page';
import { cspDirectives, cspNonce, recordCspViolations } from './support/csp';
import { SMOKE } from './support/requirements';

const SHARED_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin-allow-popups',
  'permissions-policy': expect.stringContaining('camera=(), microphone=(), geolocation=()'),
  // The suite runs a production build (over http, where browsers ignore it).
  'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
};

/** Every script tag of a server-rendered page, with its nonce attribute (the DOM hides nonces). */
function scriptTags(html: string): { tag: string; nonce: string | undefined }[] {
  return [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => ({ tag, nonce: /\snonce="([^"]*)"/.exec(tag)?.[1] }));
}

// /main signed in, so the whole app (socket, stores, i18n) runs under the policy.
for (const { path, signedIn } of [
  { path: '/account', signedIn: false },
  { path: '/main', signedIn: true },
]) {
  test(`${path}: the document carries a nonce CSP that its own scripts satisfy, and the security headers`, { tag: SMOKE }, async ({
    page,
    context,
    people,
  }) => {
    // Signed in: Alice in her own context; signed out: the test's own page.
    const alice = signedIn ? await people.signIn('alice') : null;
    const tab = alice?.page ?? page;
    const violations = await recordCspViolations(alice?.context ?? context);
    const response = await tab.goto(path);
    expect(response?.status()).toBe(200);
    const document = response!;

    expect(await document.headerValues('content-security-policy')).toHaveLength(1);
    const directives = cspDirectives(document.headers()['content-security-policy']!);
    const nonce = cspNonce(document);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/); // 16 random bytes
    const scriptSrc = directives.get('script-src');
    expect(scriptSrc).toEqual(expect.arrayContaining(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]));
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'self'"]);
    expect(directives.get('form-action')).toEqual(["'self'"]);
    expect(document.headers()).toMatchObject(SHARED_HEADERS);

    // Next put the header's nonce on every script it rendered, inline and external.
    const scripts = scriptTags(await document.text());
    expect(scripts.length).toBeGreaterThan(1);
    expect(scripts.filter((script) => script.nonce !== nonce).map((script) => script.tag)).toEqual([]);

    // Loaded and running under that policy, with nothing of ours refused.
    if (alice) await alice.main.expectSignedInAs(alice.person.name);
    else await expect(new AccountPage(tab).heading).toBeVisible();
    await tab.waitForLoadState('networkidle');
    expect(violations).toEqual([]);

    // A fresh nonce for every request.
    const again = await tab.request.get(path);
    expect(cspNonce(again)).not.toBe(nonce);
  });
}

test('/api responses carry the security headers and a CSP that allows nothing', { tag: SMOKE }, async ({ request }) => {
  for (const path of ['/api/health', '/api/accounts/info']) {
    const response = await request.get(path);
    expect(response.headers()).toMatchObject({
      ...SHARED_HEADERS,
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });
  }
});

test('the build’s scripts come from memory: Brotli, kept for good, with the security headers', async ({ request }) => {
  const html = await (await request.get('/account')).text();
  const scripts = [...html.matchAll(/src="(\/_next\/static\/[^"]+\.js)"/g)].map(([, src]) => src!);
  expect(scripts.length).toBeGreaterThan(0);
  for (const src of scripts) {
    const response = await request.get(src, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.status(), src).toBe(200);
    // Next's own handler answers gzip: Brotli is server/http/static-assets.ts's.
    expect(response.headers(), src).toMatchObject({
      ...SHARED_HEADERS,
      'content-encoding': 'br',
      'cache-control': 'public, max-age=31536000, immutable',
      'content-type': 'application/javascript; charset=UTF-8',
    });
  }
});

const PAYLOADS = ['<img src=x onerror="window.__xss=1">', '<script>window.__xss=2</script>'];

async function expectInert(page: Page) {
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator('script', { hasText: '__xss' })).toHaveCount(0);
}

test('a message made of markup arrives as text and runs nothing', async ({ alice, people }) => {
  test.setTimeout(60_000);
  // Alice's pages are watched from this load on, before any of the messages exist.
  const violations = await recordCspViolations(alice.context);
  await alice.page.reload();
  await alice.main.expectSignedInAs(alice.person.name);

  const mallory = await people.signIn('mallory');
  await mallory.chat.search(alice.person.name);
  await mallory.chat.openFromSearch(alice.person.name);
  for (const text of PAYLOADS) await mallory.chat.send(text);
  const senderThread = mallory.chat.thread(alice.person.name);
  for (const text of PAYLOADS) await expect(senderThread.getByText(text, { exact: true })).toBeVisible();
  // Every one stored (a group shows "Sent" under its last message only; each carries its status).
  await expect(senderThread.locator('[data-own="true"][data-status="sent"]')).toHaveCount(PAYLOADS.length);

  await alice.chat.openConversation(mallory.person.name);
  const thread = alice.chat.thread(mallory.person.name);
  for (const text of PAYLOADS) await expect(thread.getByText(text, { exact: true })).toBeVisible();
  await expectInert(alice.page);
  await expectInert(mallory.page);
  expect(violations).toEqual([]);
});

// The injection is served in the page itself (as a stored XSS would be), not run through
// page.evaluate: Chromium exempts code evaluated over DevTools, and what it creates, from the CSP.
test('the CSP is enforced: injected scripts and handlers do not run, and are reported', async ({
  page,
  context,
  accountPage,
}) => {
  const violations = await recordCspViolations(context);
  await page.route('**/account', async (route) => {
    const response = await route.fetch();
    const html = await response.text();
    const injected =
      '<script>window.__injected = "script"</script>' +
      '<img src="x" onerror="window.__injected = \'handler\'">' +
      // Control: a script carrying the page's nonce runs, so a refusal is the policy's doing.
      `<script nonce="${scriptTags(html)[0]?.nonce}">window.__control = true</script>`;
    await route.fulfill({ response, body: html.replace(/<body[^>]*>/, (body) => body + injected) });
  });

  await accountPage.goto();
  await expect(page.locator('img[src="x"]')).toHaveCount(1); // the injection is in the page
  expect(await page.evaluate(() => (window as { __control?: boolean }).__control)).toBe(true);

  // Markup put in at run time (say, text rendered as HTML) fares the same.
  await page.evaluate(() => {
    const holder = document.createElement('div');
    holder.innerHTML = '<img src="x" onerror="window.__injected = \'runtime handler\'">';
    document.body.append(holder);
  });
  await expect(page.locator('img[src="x"]')).toHaveCount(2);

  const reported = () => violations.filter((text) => !text.startsWith('console:') && text.includes('script-src'));
  await expect.poll(() => reported().length).toBe(3);
  // Every handler has had its turn by now.
  expect(await page.evaluate(() => (window as { __injected?: string }).__injected)).toBeUndefined();
});
