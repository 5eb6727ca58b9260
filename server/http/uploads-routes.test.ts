import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, type Attachment } from '../../lib/contract';
import { uploads } from '../db/schema';
import { setUserActive } from '../db/users';
import { signIn, startTestServer, type SignedInUser, type TestServer } from '../test/helpers';
import { eventually, filesIn, pngBytes, rawUpload } from '../test/uploads';

let t: TestServer;
let alice: SignedInUser;
beforeAll(async () => {
  t = await startTestServer();
  alice = await signIn(t.url, 'Alice');
});
afterAll(() => t.close());

const upload = (body: Buffer, { name = 'file.bin', type = 'application/octet-stream', token = alice.bearer } = {}) =>
  fetch(`${t.url}/api/uploads`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': type, 'x-file-name': encodeURIComponent(name) },
    body: new Uint8Array(body),
  });
const rowsOf = (user: SignedInUser) => t.db.select().from(uploads).where(eq(uploads.ownerId, user.user.id));
const tempFiles = async () => (await filesIn(t.uploadsDir)).filter((file) => file.startsWith('.tmp-'));

describe('POST /api/uploads', () => {
  it('stores a PNG with its sniffed type and size, whatever the client claims, and serves it back', async () => {
    const png = pngBytes(640, 480);
    const response = await upload(png, { name: 'été photo (1).png', type: 'text/html' });
    expect(response.status).toBe(201);
    const attachment = (await response.json()) as Attachment;
    expect(attachment).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
      name: 'été photo (1).png',
      mime_type: 'image/png',
      size: png.length,
      width: 640,
      height: 480,
      url: `/api/uploads/${attachment.id}/${encodeURIComponent('été photo (1).png')}`,
    });

    const served = await fetch(`${t.url}${attachment.url}`); // no bearer: an <img> cannot send one
    expect(served.status).toBe(200);
    expect(Object.fromEntries(served.headers)).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(png.length),
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline',
      'cache-control': 'private, max-age=31536000, immutable',
    });
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('stores an unknown binary as application/octet-stream, served as a download', async () => {
    const bytes = Buffer.from([0x00, 0x01, 0x02, 0xfe, 0xff, 0x3c, 0x68, 0x74, 0x6d, 0x6c]);
    const response = await upload(bytes, { name: 'page "x".html', type: 'text/html' });
    const attachment = (await response.json()) as Attachment;
    expect(attachment).toMatchObject({ mime_type: 'application/octet-stream', size: 10, width: null, height: null });

    const served = await fetch(`${t.url}${attachment.url}`);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('content-disposition')).toBe(
      `attachment; filename="page _x_.html"; filename*=UTF-8''page%20%22x%22.html`,
    );
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('recognises plain text and PDF', async () => {
    const text = (await (await upload(Buffer.from('hello\nwörld\n'), { name: 'a.txt' })).json()) as Attachment;
    expect(text.mime_type).toBe('text/plain');
    expect((await fetch(`${t.url}${text.url}`)).headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const pdf = (await (await upload(Buffer.from('%PDF-1.7\n%\xe2\xe3\n'), { name: 'a.pdf' })).json()) as Attachment;
    expect(pdf.mime_type).toBe('application/pdf');
  });

  it('refuses a declared Content-Length over MAX_UPLOAD_BYTES with 413 before reading the body', async () => {
    const before = await rowsOf(alice);
    const response = await rawUpload(
      t.url,
      { authorization: alice.bearer, 'x-file-name': 'big.bin', 'content-length': MAX_UPLOAD_BYTES + 1 },
      [Buffer.alloc(16)],
      { end: false },
    );
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ msg: 'The file is larger than 50 MB.' });
    expect(await rowsOf(alice)).toHaveLength(before.length);
    expect(await tempFiles()).toEqual([]);
  });

  it('refuses a chunked body (no Content-Length) and a missing or bad file name with 400', async () => {
    const headers = { authorization: alice.bearer, 'x-file-name': 'a.bin', 'transfer-encoding': 'chunked' };
    const chunked = await rawUpload(t.url, headers, [Buffer.from('abc')]);
    expect(chunked.status).toBe(400);
    expect(JSON.parse(chunked.body)).toEqual({ non_field_errors: [expect.stringMatching(/^content-length: /)] });

    const noName = await fetch(`${t.url}/api/uploads`, { method: 'POST', headers: { authorization: alice.bearer }, body: 'x' });
    expect(noName.status).toBe(400);
    expect(await noName.json()).toEqual({ non_field_errors: ['x-file-name: Required.'] });
    for (const name of ['%E0%A4%A', '..', 'a\u0001b']) {
      const bad = await fetch(`${t.url}/api/uploads`, {
        method: 'POST',
        headers: { authorization: alice.bearer, 'x-file-name': name === 'a\u0001b' ? encodeURIComponent(name) : name },
        body: 'x',
      });
      expect(bad.status).toBe(400);
    }
    const empty = await upload(Buffer.alloc(0));
    expect(await empty.json()).toEqual({ non_field_errors: ['content-length: The file is empty.'] });
  });

  it('removes bidi overrides and zero-width characters from file names, and refuses C1 controls', async () => {
    const response = await upload(Buffer.from('MZ'), { name: '\u202Egpj.exe' });
    const attachment = (await response.json()) as Attachment;
    expect(attachment).toMatchObject({ name: 'gpj.exe', url: `/api/uploads/${attachment.id}/gpj.exe` });
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, attachment.id));
    expect(row?.name).toBe('gpj.exe');
    expect((await fetch(`${t.url}${attachment.url}`)).headers.get('content-disposition')).toContain('filename="gpj.exe"');

    const invisible = await upload(Buffer.from('x'), { name: '\u200B\u2060' });
    expect(await invisible.json()).toEqual({ non_field_errors: ['x-file-name: Required.'] });
    const c1 = await upload(Buffer.from('x'), { name: 'a\u0085b.txt' });
    expect(await c1.json()).toEqual({ non_field_errors: ['x-file-name: Control characters are not allowed.'] });
    const separator = await upload(Buffer.from('x'), { name: 'a\u2028b.txt' });
    expect(await separator.json()).toEqual({ non_field_errors: ['x-file-name: Control characters are not allowed.'] });
    const slashes = await upload(Buffer.from('x'), { name: 'paid\u2215\uFF0Finvoice.txt' });
    expect(await slashes.json()).toMatchObject({ name: 'paid__invoice.txt' });
  });

  it('keeps only the final file: a path in the name is dropped, a JSON type is not parsed', async () => {
    const response = await upload(Buffer.from('{"a":1}'), { name: '../../etc/passwd', type: 'application/json' });
    expect(await response.json()).toMatchObject({ name: 'passwd', mime_type: 'text/plain', size: 7 });
  });

  it('leaves no file and no row behind when the client aborts mid-upload', async () => {
    const bob = await signIn(t.url, 'Bob');
    const { request } = await import('node:http');
    const req = request(`${t.url}/api/uploads`, {
      method: 'POST',
      headers: { authorization: bob.bearer, 'x-file-name': 'half.bin', 'content-length': 1_000_000 },
    });
    req.on('error', () => {});
    req.write(Buffer.alloc(64 * 1024, 7));
    await eventually(async () => (await tempFiles()).length > 0);
    req.destroy();
    await eventually(async () => (await tempFiles()).length === 0);
    expect(await rowsOf(bob)).toEqual([]);
  });

  it('needs a token, and an active account', async () => {
    const noToken = await fetch(`${t.url}/api/uploads`, { method: 'POST', headers: { 'x-file-name': 'a' }, body: 'x' });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toEqual({ msg: expect.any(String) });
    const gone = await signIn(t.url, 'Gone');
    await setUserActive(t.db, gone.user.id, false);
    const deactivated = await upload(Buffer.from('x'), { token: gone.bearer });
    expect(deactivated.status).toBe(403);
    expect(await rowsOf(gone)).toEqual([]);
  });
});

describe('GET /api/uploads/:id/:name', () => {
  it('answers HEAD, and 404 for an unknown id or a name that does not match', async () => {
    const attachment = (await (await upload(Buffer.from('hi'), { name: 'hi.txt' })).json()) as Attachment;
    const head = await fetch(`${t.url}${attachment.url}`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), head.headers.get('content-type')]).toEqual([
      200,
      '2',
      'text/plain; charset=utf-8',
    ]);
    for (const url of [`/api/uploads/nope/hi.txt`, `/api/uploads/${attachment.id}/other.txt`]) {
      const response = await fetch(`${t.url}${url}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ msg: 'Upload not found.' });
    }
  });

  it('404s the uploads of a deactivated account, and serves them again once it is reactivated', async () => {
    const leaving = await signIn(t.url, 'Leaving');
    const attachment = (await (await upload(pngBytes(2, 2), { name: 'me.png', token: leaving.bearer })).json()) as Attachment;
    expect((await fetch(`${t.url}${attachment.url}`)).status).toBe(200);
    await setUserActive(t.db, leaving.user.id, false);
    for (const method of ['GET', 'HEAD']) {
      const response = await fetch(`${t.url}${attachment.url}`, { method });
      expect(response.status, method).toBe(404);
    }
    expect(await (await fetch(`${t.url}${attachment.url}`)).json()).toEqual({ msg: 'Upload not found.' });
    await setUserActive(t.db, leaving.user.id, true);
    expect((await fetch(`${t.url}${attachment.url}`)).status).toBe(200);
  });
});
