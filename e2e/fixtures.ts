import { randomUUID } from 'node:crypto';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from '@playwright/test';
import { AccountPage } from './pages/account-page';
import { ChatPage } from './pages/chat-page';
import { MainPage } from './pages/main-page';
import { target } from './support/env';
import { People } from './support/people/people';
import { onOwnBudget, SIGN_IN_LIMIT_MS } from './support/own-budget';
import { NO_TEST_ACCOUNT_FORM, unmetRequirement } from './support/requirements';
import { readStorage } from './support/storage';

export interface TestPerson {
  name: string;
  email: string;
}

/** A signed-in person in a browser context of their own, on /main, with the page objects. */
export interface SignedIn {
  person: TestPerson & { id: number; role: string };
  /** The stored Authorization value, "Bearer <token>", for calling the API as this person. */
  token: string;
  context: BrowserContext;
  page: Page;
  account: AccountPage;
  main: MainPage;
  chat: ChatPage;
}

interface PeopleFixture {
  /**
   * Another signed-in person of `role` (a name: 'carol', 'mallory'), new to this test; `options`
   * for their browser context (a phone's viewport, dark mode).
   */
  signIn(role: string, options?: BrowserContextOptions): Promise<SignedIn>;
}

/** A person for the test-account form: a name and email nobody else in the run has. */
export function newPerson(prefix = 'Tester'): TestPerson {
  const id = randomUUID().slice(0, 8);
  return { name: `${prefix} ${id}`, email: `${prefix.toLowerCase()}-${id}@example.com` };
}

/**
 * A second (third…) person in a browser context of their own, signed in through the test-account
 * form and on /main. The alice/bob fixtures and `people.signIn` do this without the form.
 */
export async function signInNewContext(browser: Browser, person: TestPerson) {
  // Only when it applies: where the form exists this must behave as it always has, even outside a test.
  if (!target.emulatorHost) base.skip(true, NO_TEST_ACCOUNT_FORM);
  await new People(target).recordFormPerson(person);
  return onOwnBudget(SIGN_IN_LIMIT_MS, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const account = new AccountPage(page);
    await account.goto({ timeout: SIGN_IN_LIMIT_MS });
    await account.signInWithTestAccount(person.name, person.email);
    await new MainPage(page).expectSignedInAs(person.name, { timeout: SIGN_IN_LIMIT_MS });
    return { context, page };
  });
}

/** The server's account endpoints, called the way another device of the same user would. */
class AccountsApi {
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
  /** Signed-in people made by the setup project (e2e/people.setup.ts), one set per test. */
  people: PeopleFixture;
  alice: SignedIn;
  bob: SignedIn;
  /** Skips a test whose tags the target cannot meet (e2e/support/requirements.ts). */
  requirements: void;
}

interface WorkerFixtures {
  peopleStore: People;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  requirements: [
    async ({}, use, testInfo) => {
      const reason = unmetRequirement(testInfo.tags, target);
      testInfo.skip(reason !== null, reason ?? undefined);
      await use();
    },
    { auto: true },
  ],
  peopleStore: [
    async ({}, use) => {
      const people = new People(target);
      await use(people);
      await people.close();
    },
    { scope: 'worker' },
  ],
  accountPage: async ({ page }, use) => use(new AccountPage(page)),
  mainPage: async ({ page }, use) => use(new MainPage(page)),
  person: async ({ peopleStore }, use) => {
    const person = newPerson();
    // Every spec that takes `person` signs them in through the form: the clean-up removes them too.
    if (target.emulatorHost) await peopleStore.recordFormPerson(person);
    await use(person);
  },
  accountsApi: async ({ request }, use) => use(new AccountsApi(request)),
  signIn: async ({ page, person }, use, testInfo) => {
    testInfo.skip(!target.emulatorHost, NO_TEST_ACCOUNT_FORM);
    await use(async (tab = page) => {
      await onOwnBudget(SIGN_IN_LIMIT_MS, async () => {
        const account = new AccountPage(tab);
        await account.goto({ timeout: SIGN_IN_LIMIT_MS });
        await account.signInWithTestAccount(person.name, person.email);
        await new MainPage(tab).expectSignedInAs(person.name, { timeout: SIGN_IN_LIMIT_MS });
      });
      const { token } = await readStorage(tab);
      expect(token).toMatch(/^Bearer \S+$/);
      return token as string;
    });
  },
  people: async ({ browser, peopleStore }, use) => {
    const contexts: BrowserContext[] = [];
    await use({
      async signIn(role, options = {}) {
        const { record, token, storageStatePath } = await peopleStore.claim(role);
        const { context, page, main } = await onOwnBudget(SIGN_IN_LIMIT_MS, async () => {
          const context = await browser.newContext({ ...options, storageState: storageStatePath });
          contexts.push(context);
          const page = await context.newPage();
          const main = new MainPage(page);
          await page.goto('/main', { timeout: SIGN_IN_LIMIT_MS });
          await main.expectSignedInAs(record.name, { timeout: SIGN_IN_LIMIT_MS });
          return { context, page, main };
        });
        const person = { name: record.name, email: record.email, id: record.userId, role };
        return { person, token, context, page, account: new AccountPage(page), main, chat: new ChatPage(page) };
      },
    });
    for (const context of contexts) await context.close();
  },
  alice: async ({ people }, use) => use(await people.signIn('alice')),
  bob: async ({ people }, use) => use(await people.signIn('bob')),
});

export { expect };
