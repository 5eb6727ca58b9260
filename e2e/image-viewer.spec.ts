import { test, expect } from './fixtures';
import { ImageViewerPage } from './pages/image-viewer';
import { png } from '../testing/png';

test.describe.configure({ timeout: 120_000 });

// Images in a conversation: a thumbnail of the picked image before it is sent, the image's box
// held before it loads in the thread, and the viewer: opened from the thread, stepped through
// with the keyboard, zoomed, closed with Escape (the focus back on the thumbnail).
test('alice sends two images; bob opens one in the viewer, steps with the keyboard, zooms and closes with Escape', async ({ alice, bob }) => {
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);

  // Before sending: a thumbnail of the picked image itself (a local copy), not just its name.
  await alice.chat.fileInput.setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: png(400, 300) });
  const thumbnail = alice.page.getByRole('img', { name: 'Preview of wide.png' });
  await expect(thumbnail).toBeVisible();
  await expect.poll(() => thumbnail.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(400);
  await expect(alice.chat.sendButton).toBeEnabled();
  await alice.chat.sendButton.click();
  await expect(thumbnail).toBeHidden();
  await alice.chat.fileInput.setInputFiles({ name: 'tall.png', mimeType: 'image/png', buffer: png(300, 400) });
  await expect(alice.chat.sendButton).toBeEnabled();
  await alice.chat.sendButton.click();
  await expect(alice.chat.thread(bob.person.name).getByRole('button', { name: 'Image: tall.png' })).toBeVisible();

  // Bob's first image is held back: its box is already the image's shape, and stays so once it arrives.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await bob.page.route('**/api/uploads/*/wide.png', async (route) => {
    await released;
    await route.continue();
  });
  await bob.chat.openConversation(alice.person.name);
  const wide = bob.chat.thread(alice.person.name).getByRole('img', { name: 'Image: wide.png' });
  await expect(wide).toBeVisible();
  expect(await wide.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(0);
  const before = await wide.boundingBox();
  expect(before!.height).toBeGreaterThan(100);
  expect(before!.width / before!.height).toBeCloseTo(4 / 3, 1);
  release();
  await expect.poll(() => wide.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(400);
  expect(await wide.boundingBox()).toEqual(before);

  // The viewer: the image pressed, named, with where it is among the conversation's images.
  const opener = bob.chat.thread(alice.person.name).getByRole('button', { name: 'Image: wide.png' });
  await opener.click();
  const viewer = new ImageViewerPage(bob.page);
  await viewer.expectShowing('wide.png', '1 of 2');
  await expect(viewer.dialog.getByRole('link', { name: 'Download wide.png' })).toHaveAttribute('download', 'wide.png');

  await bob.page.keyboard.press('ArrowRight');
  await viewer.expectShowing('tall.png', '2 of 2');
  const fitted = (await viewer.image('tall.png').boundingBox())!;
  await bob.page.keyboard.type('+');
  await expect(viewer.zoom).toHaveText('Zoom: 150%');
  await expect.poll(async () => Math.round((await viewer.image('tall.png').boundingBox())!.height)).toBe(Math.round(fitted.height * 1.5));
  await bob.page.keyboard.press('0');
  await expect(viewer.zoom).toHaveText('Zoom: 100%');
  await bob.page.keyboard.press('ArrowLeft');
  await viewer.expectShowing('wide.png', '1 of 2');

  await bob.page.keyboard.press('Escape');
  await expect(viewer.dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
