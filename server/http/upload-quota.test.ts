// The per-user upload quota: refused before the body is read, concurrent uploads held to it,
// what is used shown to its owner; and uploads never attached deleted once they are old.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ack, Attachment, MessagePayload, UploadUsage } from '../../lib/contract';
import { waitUntil } from '../../testing/wait';
import { uploadReservations, uploads } from '../db/schema';
import { startConfiguredServer, type ConfiguredTestServer } from '../test/configured-server';
import { api, signIn, type SignedInUser } from '../test/helpers';
import { emitWithAck } from '../test/socket-client';
import { socketTabs } from '../test/tabs';
import { filesIn, openUpload, rawUpload } from '../test/uploads';

const QUOTA = 1_000;
let t: ConfiguredTestServer;
const tabs = socketTabs(() => t);
afterEach(() => tabs.closeAll());

const headersFor = (user: SignedInUser, bytes: number, name = 'notes.txt') => ({
  authorization: user.bearer,
  'x-file-name': name,
  'content-type': 'text/plain',
  'content-length': bytes,
});
const upload = (user: SignedInUser, bytes: number) => rawUpload(t.url, headersFor(user, bytes), [Buffer.alloc(bytes, 'a')]);
const usage = async (user: SignedInUser) => (await api<UploadUsage>(t.url, '/uploads/usage', { token: user.bearer })).body;
const storedBytes = async (user: SignedInUser) =>
  (await t.db.select({ size: uploads.size }).from(uploads).where(eq(uploads.ownerId, user.user.id))).reduce((sum, row) => sum + row.size, 0);

describe('quota', () => {
  beforeAll(async () => {
    t = await startConfiguredServer({ config: { uploadQuotaBytes: QUOTA } });
  });
  afterAll(() => t.close());

  it('refuses a file that would pass the quota with 413 {msg} before reading it, and takes one that fits exactly', async () => {
    const alice = await signIn(t.url, 'Alice');
    expect(await usage(alice)).toEqual({ used_bytes: 0, quota_bytes: QUOTA });
    expect((await upload(alice, 600)).status).toBe(201);
    const files = await filesIn(t.uploadsDir);

    // Declared, one byte sent: the answer comes from the Content-Length alone.
    const refused = await rawUpload(t.url, headersFor(alice, 500), [Buffer.from('a')], { end: false });
    expect(refused.status).toBe(413);
    // Decimal units, as the client shows them (1 kB = 1,000 bytes).
    expect(JSON.parse(refused.body)).toEqual({ msg: 'This file (500 bytes) does not fit in your storage: 600 bytes of 1 kB used.' });
    expect(refused.headers.connection).toBe('close');
    expect(await filesIn(t.uploadsDir)).toEqual(files);

    expect((await upload(alice, 400)).status).toBe(201);
    expect(await usage(alice)).toEqual({ used_bytes: 1_000, quota_bytes: QUOTA });
    expect((await upload(alice, 1)).status).toBe(413);
    // Someone else's quota is their own.
    const bob = await signIn(t.url, 'Bob');
    expect((await upload(bob, 900)).status).toBe(201);
  });

  it('holds concurrent uploads to the quota: each one’s bytes count from the moment it starts', async () => {
    const carol = await signIn(t.url, 'Carol');
    // Five uploads of 300 bytes, all started (headers and a first byte) before any finishes.
    const started = Array.from({ length: 5 }, () => openUpload(t.url, headersFor(carol, 300), Buffer.from('a')));
    await waitUntil(async () => (await t.db.select().from(uploadReservations)).length >= 3, { timeoutMs: 10_000, what: 'three uploads holding their bytes' });
    // An upload in progress counts in what the user sees too.
    expect(await usage(carol)).toEqual({ used_bytes: 900, quota_bytes: QUOTA });
    for (const { finish } of started) finish(Buffer.alloc(299, 'a'));
    const statuses = (await Promise.all(started.map(({ response }) => response))).map((response) => response.status);
    expect(statuses.sort()).toEqual([201, 201, 201, 413, 413]);
    expect(await storedBytes(carol)).toBe(900);
    expect(await t.db.select().from(uploadReservations).where(eq(uploadReservations.userId, carol.user.id))).toEqual([]);
  });

  it('frees what an interrupted upload held', async () => {
    const dan = await signIn(t.url, 'Dan');
    const interrupted = openUpload(t.url, headersFor(dan, 800), Buffer.from('a'));
    const settled = interrupted.response.catch(() => null);
    await waitUntil(async () => (await usage(dan)).used_bytes === 800, { timeoutMs: 10_000, what: 'the upload to hold its bytes' });
    // The client goes away mid-body.
    interrupted.abort();
    expect(await settled).toBeNull();
    await waitUntil(async () => (await usage(dan)).used_bytes === 0, { timeoutMs: 10_000, what: 'the bytes to be freed' });
    expect((await upload(dan, 800)).status).toBe(201);
  });
});

describe('an upload taken off the composer', () => {
  beforeAll(async () => {
    t = await startConfiguredServer({ config: { uploadQuotaBytes: QUOTA } });
  });
  afterAll(() => t.close());

  const remove = (user: SignedInUser, id: string) => api<{ msg: string }>(t.url, `/uploads/${id}`, { method: 'DELETE', token: user.bearer });

  it('is deleted at once, row and file, and stops counting; one a message carries stays', async () => {
    const [gus, hal] = await Promise.all([signIn(t.url, 'Gus'), signIn(t.url, 'Hal')]);
    const [unsent, sent] = await Promise.all([upload(gus, 600), upload(gus, 300)]).then((responses) =>
      responses.map((response) => JSON.parse(response.body) as Attachment),
    );
    const tab = await tabs.open(gus);
    const ack = await emitWithAck<Ack<MessagePayload>>(tab, 'send', { client_id: randomUUID(), recipient_id: hal.user.id, text: '', attachment_id: sent!.id });
    expect(ack).toMatchObject({ data: { attachment: { id: sent!.id } } });
    expect(await usage(gus)).toEqual({ used_bytes: 900, quota_bytes: QUOTA });
    const files = await filesIn(t.uploadsDir);

    expect((await remove(gus, unsent!.id)).status).toBe(204);
    expect(await usage(gus)).toEqual({ used_bytes: 300, quota_bytes: QUOTA });
    expect(await filesIn(t.uploadsDir)).toHaveLength(files.length - 1);
    expect((await api(t.url, unsent!.url.replace(/^\/api/, ''))).status).toBe(404);
    // Its room is free again: a file that did not fit before now does.
    expect((await upload(gus, 700)).status).toBe(201);

    // Deleted already, someone else's, or no upload's id: 404. In a message: 409, and it stays.
    expect(await remove(gus, unsent!.id)).toMatchObject({ status: 404, body: { msg: 'Upload not found.' } });
    expect((await remove(hal, sent!.id)).status).toBe(404);
    expect((await remove(gus, 'not-an-id')).status).toBe(404);
    expect(await remove(gus, sent!.id)).toMatchObject({ status: 409, body: { msg: expect.stringContaining('unsend') } });
    expect((await api(t.url, sent!.url.replace(/^\/api/, ''))).status).toBe(200);
  });

  it('cannot be sent once deleted', async () => {
    const [ida, jon] = await Promise.all([signIn(t.url, 'Ida'), signIn(t.url, 'Jon')]);
    const gone = JSON.parse((await upload(ida, 10)).body) as Attachment;
    expect((await remove(ida, gone.id)).status).toBe(204);
    const tab = await tabs.open(ida);
    const ack = await emitWithAck<Ack<MessagePayload>>(tab, 'send', { client_id: randomUUID(), recipient_id: jon.user.id, text: '', attachment_id: gone.id });
    expect(ack).toEqual({ error: { non_field_errors: ['attachment_id: No such upload of yours.'] } });
  });
});

describe('unattached uploads', () => {
  beforeAll(async () => {
    // A one-second lifetime for unattached uploads: the sweeper then runs every second.
    t = await startConfiguredServer({ config: { uploadQuotaBytes: QUOTA, unattachedUploadTtlMs: 1_000 } });
  });
  afterAll(() => t.close());

  it('deletes an upload no message carries once it is old, row and file, and keeps one a message carries', async () => {
    const [erin, fay] = await Promise.all([signIn(t.url, 'Erin'), signIn(t.url, 'Fay')]);
    const [left, sent] = await Promise.all([upload(erin, 10), upload(erin, 20)]).then((responses) =>
      responses.map((response) => JSON.parse(response.body) as Attachment),
    );
    const tab = await tabs.open(erin);
    const ack = await emitWithAck<Ack<MessagePayload>>(tab, 'send', { client_id: randomUUID(), recipient_id: fay.user.id, text: '', attachment_id: sent!.id });
    expect(ack).toMatchObject({ data: { attachment: { id: sent!.id } } });

    const rowOf = async (id: string) => (await t.db.select().from(uploads).where(eq(uploads.id, id)))[0];
    const keep = [(await rowOf(sent!.id))!.storageKey];
    // Its row goes first, then its file.
    await waitUntil(async () => (await rowOf(left!.id)) === undefined && (await filesIn(t.uploadsDir)).join() === keep.join(), {
      timeoutMs: 15_000,
      what: 'the unattached upload to be swept',
    });
    expect((await api(t.url, left!.url.replace(/^\/api/, ''))).status).toBe(404);
    // The one a message carries stays, past several rounds of the sweeper, and is still served.
    expect((await rowOf(sent!.id))?.attachedAt).toBeInstanceOf(Date);
    expect((await api(t.url, sent!.url.replace(/^\/api/, ''))).status).toBe(200);
    expect(await usage(erin)).toEqual({ used_bytes: 20, quota_bytes: QUOTA });
  });
});
