import { open, truncate } from 'node:fs/promises';
import { test, expect, newPerson, signInNewContext } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { png } from '../testing/png';


test('attachments: a 51 MB file is refused before upload; an image uploads with progress and shows for both', async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const aliceName = newPerson('Alice');
  const bobName = newPerson('Bob');
  const alice = new ChatPage((await signInNewContext(browser, aliceName)).page);
  const bob = new ChatPage((await signInNewContext(browser, bobName)).page);
  await alice.search(bobName.name);
  await alice.openFromSearch(bobName.name);

  const uploads: string[] = [];
  alice.page.on('request', (request) => {
    if (request.url().includes('/api/uploads')) uploads.push(request.method());
  });

  // 52.5 MB (sparse on disk): refused at once, its size and the limit in the same decimal units.
  const bigFile = testInfo.outputPath('big.bin');
  await (await open(bigFile, 'w')).close();
  await truncate(bigFile, 52_500_000);
  await alice.fileInput.setInputFiles(bigFile);
  await expect(alice.page.getByText('“big.bin” is 52.5 MB. Files can be at most 50 MB.')).toBeVisible();
  expect(uploads).toEqual([]);

  // A small image: the progress bar shows while the upload is under way (held back a moment by
  // the test so a fast machine cannot skip it), then the image shows for both, at its own size.
  await alice.page.route('**/api/uploads', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  await alice.fileInput.setInputFiles({ name: 'dots.png', mimeType: 'image/png', buffer: png(40, 30) });
  await expect(alice.page.getByRole('progressbar')).toBeVisible();
  await expect(alice.sendButton).toBeEnabled();
  await alice.sendButton.click();

  for (const [viewer, partner] of [
    [alice, bobName.name],
    [bob, aliceName.name],
  ] as const) {
    if (viewer === bob) await bob.openConversation(aliceName.name);
    const image = viewer.thread(partner).getByRole('img', { name: /dots\.png/ });
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('width', '40');
    await expect(image).toHaveAttribute('height', '30');
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(40);
  }
});
