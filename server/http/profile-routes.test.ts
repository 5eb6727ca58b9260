import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Attachment, AuthorizeResponse, ConversationSummaryPage, Page, Profile, User, UserSummary } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { deleteUnattachedUploads } from '../db/upload-sweep';
import { api, authorizeBody, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { connectSocket, emitWithAck } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';
import { eventually, filesIn, pngBytes, rawUpload } from '../test/uploads';

const { t, tabs } = serverWithTabs(() => startTestServer());

const patch = (json: unknown, token?: string) => api<User>(t.url, '/accounts/profile', { method: 'PATCH', json, token });
const info = (user: SignedInUser) => api<User>(t.url, '/accounts/info', { token: user.bearer }).then((response) => response.body);

async function upload(user: SignedInUser, bytes: Buffer, name: string, type: string): Promise<Attachment> {
  const response = await rawUpload(t.url, { authorization: user.bearer, 'x-file-name': name, 'content-type': type, 'content-length': bytes.length }, [bytes]);
  expect(response.status).toBe(201);
  return JSON.parse(response.body) as Attachment;
}

const photo = (user: SignedInUser) => upload(user, pngBytes(256, 256), 'avatar.png', 'image/png');

/** Signs in again with the provider's name and photo, as the client does at every sign-in. */
async function signInAgain(user: SignedInUser, provider: { username: string; avatar: string }): Promise<User> {
  const response = await api<AuthorizeResponse>(t.url, '/accounts/authorize', { method: 'POST', json: authorizeBody(user.account, provider) });
  expect(response.status).toBe(200);
  return response.body.user;
}

describe('PATCH /api/accounts/profile: the name', () => {
  it('stores the name cleaned and returns the user; info, search and profiles show it', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
    // A right-to-left override and a zero-width space go; runs of spaces become one.
    const response = await patch({ username: '  Ada\u200B   \u202ELovelace ' }, alice.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...alice.user, username: 'Ada Lovelace' });
    expect((await info(alice)).username).toBe('Ada Lovelace');
    const found = await api<Page<UserSummary>>(t.url, '/users/search?q=lovelace', { token: bob.bearer });
    expect(found.body.results.map((person) => [person.id, person.username])).toEqual([[alice.user.id, 'Ada Lovelace']]);
    const profile = await api<Profile>(t.url, `/users/${alice.user.id}`, { token: bob.bearer });
    expect(profile.body.username).toBe('Ada Lovelace');
  });

  it('a name the user chose survives the next sign-ins; one never chosen follows the provider', async () => {
    const [chooser, follower] = await Promise.all([signIn(t.url, 'Provider Name'), signIn(t.url, 'Provider Name')]);
    await patch({ username: 'Chosen Name' }, chooser.bearer);
    expect((await signInAgain(chooser, { username: 'Provider Renamed', avatar: 'https://example.com/new.png' })).username).toBe('Chosen Name');
    // The photo was not chosen: it still follows the provider.
    expect((await info(chooser)).avatar).toBe('https://example.com/new.png');
    expect((await signInAgain(follower, { username: 'Provider Renamed', avatar: 'https://example.com/new.png' })).username).toBe('Provider Renamed');
  });

  it.each([
    ['nothing to change', {}, /Nothing to change/],
    ['an empty name', { username: '' }, /^username: /],
    ['a name of invisible characters only', { username: '\u200B\u202E \u2060' }, /^username: Must contain a visible character\./],
    ['a control character', { username: 'Ada\u0007' }, /^username: Control characters are not allowed\./],
    ['a name over 100 characters', { username: 'x'.repeat(101) }, /^username: /],
    ['a name that is not a string', { username: 42 }, /^username: /],
    ['a null name', { username: null }, /^username: /],
    ['an unknown field', { username: 'Ada', email: 'ada@example.com' }, /email/],
    ['a malformed upload id', { avatar_upload_id: '../etc/passwd' }, /^avatar_upload_id: Not an upload id\./],
    ['a non-object', ['Ada'], /./],
  ])('400s %s and changes nothing', async (_label, body, problem) => {
    const alice = await signIn(t.url, 'Alice');
    const response = await patch(body, alice.bearer);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: expect.arrayContaining([expect.stringMatching(problem)]) });
    expect(await info(alice)).toEqual(alice.user);
  });

  it('401s without a token and 403s a deactivated account', async () => {
    expect((await patch({ username: 'Nobody' })).status).toBe(401);
    const gone = await signIn(t.url, 'Gone');
    await api(t.url, '/accounts/deactivate', { method: 'POST', token: gone.bearer });
    expect((await patch({ username: 'Back' }, gone.bearer)).status).toBe(403);
  });
});

describe('PATCH /api/accounts/profile: the photo', () => {
  it('takes an image the user uploaded: served at its upload URL, shown to others, kept across sign-ins', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
    const image = await photo(alice);
    const response = await patch({ avatar_upload_id: image.id }, alice.bearer);
    expect(response.status).toBe(200);
    expect(response.body.avatar).toBe(image.url);
    const served = await fetch(`${t.url}${image.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect((await api<Profile>(t.url, `/users/${alice.user.id}`, { token: bob.bearer })).body.avatar).toBe(image.url);
    // The provider's photo no longer replaces it.
    expect((await signInAgain(alice, { username: 'Alice', avatar: 'https://example.com/provider.png' })).avatar).toBe(image.url);
  });

  it('is never swept as an unattached upload', async () => {
    const alice = await signIn(t.url, 'Alice');
    const image = await photo(alice);
    await patch({ avatar_upload_id: image.id }, alice.bearer);
    // Everything unattached made before tomorrow goes; the photo stays.
    await deleteUnattachedUploads(t.db, new Date(Date.now() + 86_400_000), 1_000);
    expect((await fetch(`${t.url}${image.url}`)).status).toBe(200);
  });

  it('refuses an upload of someone else’s, one that is not an image, and one that does not exist, changing nothing', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
    const bobs = await photo(bob);
    const text = await upload(alice, Buffer.from('not a picture\n'), 'notes.png', 'image/png');
    expect(text.mime_type).toBe('text/plain');
    for (const [id, problem] of [
      [bobs.id, 'avatar_upload_id: No such upload of yours.'],
      ['NoSuchUpload123', 'avatar_upload_id: No such upload of yours.'],
      [text.id, 'avatar_upload_id: Must be an image (PNG, JPEG, WebP or GIF).'],
    ]) {
      const response = await patch({ avatar_upload_id: id, username: 'Changed' }, alice.bearer);
      expect(response).toMatchObject({ status: 400, body: { non_field_errors: [problem] } });
    }
    expect(await info(alice)).toEqual(alice.user);
    // Refused, the text file is still an unattached upload: swept like any other.
    await deleteUnattachedUploads(t.db, new Date(Date.now() + 86_400_000), 1_000);
    expect((await fetch(`${t.url}${text.url}`)).status).toBe(404);
  });

  it('replacing or removing the photo deletes the old file, unless a message carries it', async () => {
    const [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
    const [first, second, third] = [await photo(alice), await photo(alice), await photo(alice)];
    await patch({ avatar_upload_id: first.id }, alice.bearer);
    await patch({ avatar_upload_id: second.id }, alice.bearer);
    expect((await fetch(`${t.url}${first.url}`)).status).toBe(404);
    // Sent as an attachment too: replacing the photo leaves the message its file.
    await insertMessage(t.db, { senderId: alice.user.id, recipientId: bob.user.id, clientId: randomUUID(), text: '', attachmentId: second.id });
    await patch({ avatar_upload_id: third.id }, alice.bearer);
    expect((await fetch(`${t.url}${second.url}`)).status).toBe(200);
    const files = (await filesIn(t.uploadsDir)).length;
    const removed = await patch({ avatar_upload_id: null }, alice.bearer);
    expect(removed.body.avatar).toBeNull();
    expect((await fetch(`${t.url}${third.url}`)).status).toBe(404);
    expect((await filesIn(t.uploadsDir)).length).toBe(files - 1);
    // Removed is a choice too: the provider's photo does not come back.
    expect((await signInAgain(alice, { username: 'Alice', avatar: 'https://example.com/provider.png' })).avatar).toBeNull();
  });

  it('goes with the account when it is deleted', async () => {
    const alice = await signIn(t.url, 'Alice');
    const image = await photo(alice);
    await patch({ avatar_upload_id: image.id, username: 'Ada' }, alice.bearer);
    expect((await api(t.url, '/accounts/me', { method: 'DELETE', token: alice.bearer })).status).toBe(204);
    expect((await fetch(`${t.url}${image.url}`)).status).toBe(404);
  });
});

describe('user_updated', () => {
  it('reaches the user’s tabs and the people with a conversation with them, not strangers nor those who blocked them', async () => {
    const [alice, bob, carol, dave, stranger] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob'), signIn(t.url, 'Carol'), signIn(t.url, 'Dave'), signIn(t.url, 'Stranger')]);
    for (const peer of [bob, carol, dave]) {
      await insertMessage(t.db, { senderId: peer.user.id, recipientId: alice.user.id, clientId: randomUUID(), text: 'hi' });
    }
    expect((await api(t.url, `/users/${alice.user.id}/block`, { method: 'PUT', token: dave.bearer })).status).toBe(200);
    const [aliceTab, bobTab, carolTab, daveTab, strangerTab] = await Promise.all([tabs.open(alice), tabs.open(bob), tabs.open(carol), tabs.open(dave), tabs.open(stranger)]);
    const heard = [aliceTab, bobTab, carolTab, daveTab, strangerTab].map((tab) => record(tab, 'user_updated'));
    // A tab that never sent init is not in the messaging room.
    const uninitialised = await connectSocket(t.url, bob.bearer);
    const unheard = record(uninitialised, 'user_updated');

    const image = await photo(alice);
    const response = await patch({ username: 'Alice Renamed', avatar_upload_id: image.id }, alice.bearer);
    const expected = { id: alice.user.id, username: 'Alice Renamed', avatar: image.url };
    await eventually(async () => heard.slice(0, 3).every((events) => events.length === 1));
    expect(heard.slice(0, 3)).toEqual([[expected], [expected], [expected]]);
    // The conversation list then agrees with the event.
    const list = await api<ConversationSummaryPage>(t.url, '/c', { token: bob.bearer });
    expect(list.body.results[0]?.user).toMatchObject({ username: 'Alice Renamed', avatar: response.body.avatar });

    // Saving the same values again announces nothing; a ping round later, nobody else heard anything.
    await patch({ username: 'Alice Renamed' }, alice.bearer);
    await emitWithAck(strangerTab, 'read', { user_id: alice.user.id });
    expect(heard[0]).toHaveLength(1);
    expect(heard[3]).toEqual([]);
    expect(heard[4]).toEqual([]);
    expect(unheard).toEqual([]);
    uninitialised.close();
  });
});
