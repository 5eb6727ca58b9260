// People signed in in browser contexts of their own, with the viewport and colour scheme a spec
// needs (a phone, dark mode). Like signInNewContext in fixtures.ts, with context options.
import type { Browser, BrowserContextOptions } from '@playwright/test';
import { AccountPage } from '../pages/account-page';
import { ChatPage } from '../pages/chat-page';
import { MainPage } from '../pages/main-page';
import type { TestPerson } from '../fixtures';

export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } satisfies BrowserContextOptions;
export const DESKTOP = { viewport: { width: 1280, height: 800 } } satisfies BrowserContextOptions;

export async function signedIn(browser: Browser, person: TestPerson, options: BrowserContextOptions = {}): Promise<ChatPage> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const account = new AccountPage(page);
  await account.goto();
  await account.signInWithTestAccount(person.name, person.email);
  await new MainPage(page).expectSignedInAs(person.name);
  return new ChatPage(page);
}

/** The user id behind a signed-in page (its accounts/info), for URLs like /main/<id>. */
export async function userIdOf(chat: ChatPage): Promise<number> {
  const token = await chat.page.evaluate(() => window.localStorage.getItem('token'));
  const response = await chat.page.request.get('/api/accounts/info', { headers: { Authorization: token ?? '' } });
  return ((await response.json()) as { id: number }).id;
}
