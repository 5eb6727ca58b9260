import type { Page } from '@playwright/test';

export async function readStorage(page: Page) {
  return page.evaluate(() => ({
    token: window.localStorage.getItem('token'),
    locale: window.localStorage.getItem('locale'),
  }));
}
