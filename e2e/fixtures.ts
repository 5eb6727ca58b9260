import { randomUUID } from 'node:crypto';
import { test as base, expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { AccountPage } from './pages/account-page';
import { MainPage } from './pages/main-page';
import { readStorage } from './support/storage';

export interface TestPerson {
  name: string;
  email: string;
}

/** The server's account endpoints, called the way another device of the same user would. */
export function newPerson(prefix = 'Tester'): TestPerson {
  const id = randomUUID().slice(0, 8);
  return { name: `${prefix} ${id}`, email: `${prefix.toLowerCase()}-${id}@example.com` };
}

/** A second (third…) person in a browser context of their own, signed in and on /main. */
export async function signInNewContext(browser: Browser, person: TestPerson) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = new AccountPage(page);
  await account.goto();
  await account.signInWithTestAccount(person.name, person.email);
  await new MainPage(page).expectSignedInAs(person.name);
  return { context, page };
}

export class AccountsApi {
  constructor(private readonly request: APIRequestContext) {}

  async revoke(token: string) {
    const response = await this.request.post('/api/accounts/logout', { headers: { Authorization: token } });
    expect(response.status()).toBe(204);
  }

  async deactivate(token: string) {
    const response = await this.request.post('/api/accounts/deactivate', { headers: { Authorization: token } });
    expect(response.status()).toBe(204);
  }
}

interface Fixtures {
  accountPage: AccountPage;
  mainPage: MainPage;
  person: TestPerson;
  accountsApi: AccountsApi;
  /** Signs `person` in through the test-account form and returns the stored token. */
  signIn: (page?: Page) => Promise<string>;
}

export const test = base.extend<Fixtures>({
  accountPage: async ({ page }, use) => use(new AccountPage(page)),
  mainPage: async ({ page }, use) => use(new MainPage(page)),
  person: async ({}, use) => use(newPerson()),
  accountsApi: async ({ request }, use) => use(new AccountsApi(request)),
  signIn: async ({ page, person }, use) => {
    await use(async (target = page) => {
      const account = new AccountPage(target);
      await account.goto();
      await account.signInWithTestAccount(person.name, person.email);
      await new MainPage(target).expectSignedInAs(person.name);
      const { token } = await readStorage(target);
      expect(token).toMatch(/^Bearer \S+$/);
      return token as string;
    });
  },
});

export { expect };
