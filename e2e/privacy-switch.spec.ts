// A privacy switch is a switch: it moves when pressed, and the server is told behind it. Refused,
// it moves back and says so.
import { test, expect } from './fixtures';
import { SettingsDialog } from './pages/settings-dialog';
import { expectNoA11yViolationsLightAndDark } from './support/axe';

test('a privacy switch moves at once, and moves back, saying why, when the server refuses', async ({ alice }, testInfo) => {
  // Two axe runs (light and dark) besides the switches: more than the default on a loaded 2-core machine.
  test.setTimeout(90_000);
  const { page } = alice;
  const settings = new SettingsDialog(page);
  await settings.open('Privacy');
  const online = settings.dialog.getByRole('checkbox', { name: 'Show when I’m online' });
  await expect(online).toBeChecked();

  // The server takes its time, then refuses.
  let answer: () => void = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/api/accounts/settings', async (route) => {
    await answered;
    await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ msg: 'Service unavailable.' }) });
  });
  await online.click();
  // Moved while the request still waits, and still usable.
  await expect(online).not.toBeChecked();
  await expect(online).toBeEnabled();
  answer();
  await expect(online).toBeChecked();
  await expect(settings.dialog.getByRole('status').filter({ hasText: 'Not turned off, so it is still on: Parley is having trouble right now. Try again in a moment.' })).toBeVisible();
  await expectNoA11yViolationsLightAndDark(page, testInfo, 'privacy settings after a refusal');

  // Accepted: it stays where it moved, and the account keeps it.
  await page.unroute('**/api/accounts/settings');
  await online.click();
  await expect(online).not.toBeChecked();
  await expect(settings.dialog.getByRole('status').filter({ hasText: 'Privacy setting saved.' })).toBeVisible();
  const info = await page.request.get('/api/accounts/info', { headers: { Authorization: alice.token } });
  expect(((await info.json()) as { show_presence: boolean }).show_presence).toBe(false);
});
