import { open, truncate } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { test, expect, newPerson, signInNewContext } from './fixtures';
import { ChatPage } from './pages/chat-page';

/** A valid width × height RGB PNG, built from bytes so the suite needs no fixture files. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x40)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

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

  // 51 MB (sparse on disk): refused at once with the limit, and nothing is sent.
  const bigFile = testInfo.outputPath('big.bin');
  await (await open(bigFile, 'w')).close();
  await truncate(bigFile, 51 * 1024 * 1024);
  await alice.fileInput.setInputFiles(bigFile);
  await expect(alice.page.getByText(/big\.bin.*at most/)).toBeVisible();
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
