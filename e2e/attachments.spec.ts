import { open, truncate } from 'node:fs/promises';
import { test, expect } from './fixtures';
import { SettingsDialog } from './pages/settings-dialog';
import { png } from '../testing/png';

test('attachments: a 52.5 MB file is refused before upload; an image uploads with progress and shows for both', async ({
  alice,
  bob,
}, testInfo) => {
  test.setTimeout(90_000);
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);

  const uploads: string[] = [];
  alice.page.on('request', (request) => {
    if (request.url().includes('/api/uploads')) uploads.push(request.method());
  });

  // 52.5 MB (sparse on disk): refused at once, its size and the limit in the same decimal units.
  const bigFile = testInfo.outputPath('big.bin');
  await (await open(bigFile, 'w')).close();
  await truncate(bigFile, 52_500_000);
  await alice.chat.fileInput.setInputFiles(bigFile);
  await expect(alice.page.getByText('“big.bin” is 52.5 MB. Files can be at most 50 MB.')).toBeVisible();
  expect(uploads).toEqual([]);

  // A small image: the progress bar shows while the upload is under way (held back a moment by
  // the test so a fast machine cannot skip it), then the image shows for both, at its own size.
  await alice.page.route('**/api/uploads', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  await alice.chat.fileInput.setInputFiles({ name: 'dots.png', mimeType: 'image/png', buffer: png(40, 30) });
  await expect(alice.page.getByRole('progressbar')).toBeVisible();
  await expect(alice.chat.sendButton).toBeEnabled();
  await alice.chat.sendButton.click();

  for (const [viewer, partner] of [
    [alice.chat, bob.person.name],
    [bob.chat, alice.person.name],
  ] as const) {
    if (viewer === bob.chat) await bob.chat.openConversation(alice.person.name);
    const image = viewer.thread(partner).getByRole('img', { name: /dots\.png/ });
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('width', '40');
    await expect(image).toHaveAttribute('height', '30');
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(40);
  }
});

test('a file taken off the composer before sending stops counting: Settings › Your data, in decimal units', async ({ alice, bob }) => {
  test.setTimeout(90_000);
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  const settings = new SettingsDialog(alice.page);
  const used = async (text: string) => {
    await settings.open('Your data');
    await expect(settings.panel.getByText(text, { exact: true })).toBeVisible();
    await settings.close();
  };

  await alice.chat.fileInput.setInputFiles({ name: 'data.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(1_500_000, 7) });
  await expect(alice.page.getByText('data.bin is ready to send.')).toBeAttached();
  // 1,500,000 bytes: "1.5 MB" (counted in 1024s it read "1.4 MB").
  await expect(alice.page.getByText('1.5 MB', { exact: true })).toBeVisible();
  await used('1.5 MB of 2 GB used');

  const deleted = alice.page.waitForResponse((response) => response.request().method() === 'DELETE' && response.url().includes('/api/uploads/'));
  await alice.page.getByRole('button', { name: 'Remove attachment' }).click();
  await expect(alice.page.getByText('data.bin')).toHaveCount(0);
  expect((await deleted).status()).toBe(204);
  await used('0 bytes of 2 GB used');
});
