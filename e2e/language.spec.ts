import { test, expect } from './fixtures';
import { readStorage } from './support/storage';

test('switching the language changes the UI, is stored in locale and on the server', async ({ alice }) => {
  const { page } = alice;
  await expect(page.getByRole('heading', { name: 'Messages', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Settings' }).click();
  // The choice shows once the language is loaded and saved, so click and wait rather than check().
  await page.getByRole('radio', { name: 'Español' }).click();
  await expect(page.getByRole('radio', { name: 'Español' })).toBeChecked();

  await expect(page.getByRole('status').filter({ hasText: 'Idioma guardado.' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Mensajes', exact: true })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Buscar personas' })).toBeVisible();
  expect((await readStorage(page)).locale).toBe('es');

  // The server keeps it: a fresh browser profile with no locale still gets Spanish.
  const { token } = await readStorage(page);
  // Saved on the server right after it is shown and stored (lib/lifecycle/user-language.ts).
  const saved = async () => ((await (await page.request.get('/api/accounts/info', { headers: { Authorization: token ?? '' } })).json()) as { language: string }).language;
  await expect.poll(saved).toBe('es');
  await page.evaluate(() => window.localStorage.removeItem('locale'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Mensajes', exact: true })).toBeVisible();
});
