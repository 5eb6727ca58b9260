import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLLOW_LIST_PAGE_SIZE, type Page, type Profile, type SearchResult, type UserSummary } from '../../lib/contract';
import { setFollow } from '../db/people';
import { setUserActive, updateSettings, upsertUserFromFirebase } from '../db/users';
import { directConversationId, insertMessage } from '../../testing/database';
import { api, signIn, startTestServer, type SignedInUser, type TestServer } from '../test/helpers';

let t: TestServer;
let me: SignedInUser;
beforeAll(async () => {
  t = await startTestServer();
  me = await signIn(t.url, 'Me Myself');
});
afterAll(() => t.close());

/** null: no Authorization header at all. */
const get = <T>(route: string, token: string | null = me.bearer) => api<T>(t.url, route, { token: token ?? undefined });
/** A user straight in the database: lists and search need many, sign-in is not the point here. */
const dbUser = (username: string | null, email: string | null = null) =>
  upsertUserFromFirebase(t.db, { firebaseUid: randomUUID(), username, email, avatar: null, socialType: 'google' });
const prefix = () => `Q${randomUUID().slice(0, 8)}`;

describe('GET /api/users/search', () => {
  it('finds active users by a word of their name or their whole email, case-insensitively, without emails', async () => {
    const p = prefix();
    const byName = await dbUser(`Some ${p}`, 'someone@example.com');
    const email = `${p.toLowerCase()}@example.com`;
    const byEmail = await dbUser('Other', email);
    const inactive = await dbUser(`${p} Gone`);
    await setUserActive(t.db, inactive.id, false);

    const response = await get<Page<UserSummary>>(`/users/search?q=${p.toUpperCase()}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      results: [{ id: byName.id, username: `Some ${p}`, avatar: null, is_following: false, follows_you: false, deleted: false, can_message: true }],
      next_cursor: null,
    });
    // The email's start is not enough; the whole address is.
    expect((await get<Page<UserSummary>>(`/users/search?q=${encodeURIComponent(email.slice(0, -1))}`)).body.results).toEqual([]);
    const whole = await get<Page<UserSummary>>(`/users/search?q=${encodeURIComponent(email.toUpperCase())}`);
    expect(whole.body.results).toEqual([{ id: byEmail.id, username: 'Other', avatar: null, is_following: false, follows_you: false, deleted: false, can_message: true }]);
    expect(JSON.stringify(whole.body)).not.toContain('@example.com');
  });

  it('says of each result whether a message from the caller would be accepted now, by their "who can message me"', async () => {
    const p = prefix();
    await dbUser(`${p} Open`);
    const closed = await dbUser(`${p} Closed`);
    const choosy = await dbUser(`${p} Choosy`);
    await updateSettings(t.db, closed.id, { messagePolicy: 'nobody' });
    await updateSettings(t.db, choosy.id, { messagePolicy: 'following' });
    const canMessage = async () =>
      Object.fromEntries((await get<Page<SearchResult>>(`/users/search?q=${p}`)).body.results.map((person) => [person.username, person.can_message]));
    expect(await canMessage()).toEqual({ [`${p} Open`]: true, [`${p} Closed`]: false, [`${p} Choosy`]: false });

    // Choosy follows the caller now: the same search says so.
    await setFollow(t.db, choosy.id, me.user.id, true);
    expect(await canMessage()).toEqual({ [`${p} Open`]: true, [`${p} Closed`]: false, [`${p} Choosy`]: true });
  });

  it('never finds the caller', async () => {
    const response = await get<Page<UserSummary>>(`/users/search?q=${encodeURIComponent('Me Myself')}`);
    expect(response.body.results.map((u) => u.id)).not.toContain(me.user.id);
  });

  it('honours limit', async () => {
    const p = prefix();
    for (let i = 0; i < 3; i++) await dbUser(`${p} ${i}`);
    expect((await get<Page<UserSummary>>(`/users/search?q=${p}&limit=2`)).body.results).toHaveLength(2);
  });

  it.each([
    ['no q', ''],
    ['an empty q', 'q=%20%20'],
    ['a q over 100 characters', `q=${'a'.repeat(101)}`],
    ['limit 0', 'q=a&limit=0'],
    ['limit 51', 'q=a&limit=51'],
    ['a fractional limit', 'q=a&limit=1.5'],
    ['a word for limit', 'q=a&limit=ten'],
    ['two q values', 'q=a&q=b'],
  ])('400s %s', async (_label, query) => {
    const response = await get(`/users/search?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: [expect.any(String)] });
  });

  it('401s without a token', async () => {
    const response = await get('/users/search?q=a', null);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ msg: expect.any(String) });
  });

  it('403s a deactivated caller', async () => {
    const gone = await signIn(t.url, 'Soon Gone');
    await setUserActive(t.db, gone.user.id, false);
    expect((await get('/users/search?q=a', gone.bearer)).status).toBe(403);
  });
});

describe('GET /api/users/:id', () => {
  it('returns the profile with counts and follow flags', async () => {
    const star = await dbUser('Star');
    await setFollow(t.db, me.user.id, star.id, true);
    await setFollow(t.db, star.id, me.user.id, true);
    const response = await get<Profile>(`/users/${star.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: star.id,
      username: 'Star',
      avatar: null,
      is_following: true,
      follows_you: true,
      deleted: false,
      followers_count: 1,
      following_count: 1,
      blocked: false,
      can_message: true,
      conversation_id: null,
    });
  });

  it('names the caller’s direct conversation with the person once they have one, to the two of them only', async () => {
    const [pal, other] = await Promise.all([dbUser('Pal'), dbUser('Other')]);
    await insertMessage(t.db, { senderId: pal.id, recipientId: me.user.id, clientId: randomUUID(), text: 'hi' });
    const conversation = await directConversationId(t.db, me.user.id, pal.id);
    expect((await get<Profile>(`/users/${pal.id}`)).body.conversation_id).toBe(conversation);
    expect((await get<Profile>(`/users/${other.id}`)).body.conversation_id).toBeNull();
    expect((await get<Profile>(`/users/${me.user.id}`)).body.conversation_id).toBeNull();
  });

  it('404s unknown and inactive users', async () => {
    const gone = await dbUser('Gone');
    await setUserActive(t.db, gone.id, false);
    for (const id of [gone.id, 2_000_000_000]) {
      const response = await get(`/users/${id}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ msg: 'User not found.' });
    }
  });

  it.each(['0', '-1', 'abc', '1.5', '1e3', '2147483648', '007'])('400s the id %s', async (id) => {
    const response = await get(`/users/${id}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: [expect.stringMatching(/^id: /)] });
  });
});

describe('GET /api/users/:id/followers and /following', () => {
  it('pages followers newest first with an opaque cursor', async () => {
    const star = await dbUser('Crowd puller');
    const fans = [];
    for (let i = 0; i < FOLLOW_LIST_PAGE_SIZE + 5; i++) {
      const fan = await dbUser(`fan ${i}`);
      fans.push(fan.id);
      await setFollow(t.db, fan.id, star.id, true);
    }
    const first = await get<Page<UserSummary>>(`/users/${star.id}/followers`);
    expect(first.status).toBe(200);
    expect(first.body.results).toHaveLength(FOLLOW_LIST_PAGE_SIZE);
    expect(first.body.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = await get<Page<UserSummary>>(`/users/${star.id}/followers?cursor=${first.body.next_cursor}`);
    expect(second.body.next_cursor).toBeNull();
    expect([...first.body.results, ...second.body.results].map((u) => u.id)).toEqual(fans.reverse());
  });

  it('lists whom a user follows', async () => {
    const [fan, a, b] = [await dbUser('fan'), await dbUser('a'), await dbUser('b')];
    await setFollow(t.db, fan.id, a.id, true);
    await setFollow(t.db, fan.id, b.id, true);
    const response = await get<Page<UserSummary>>(`/users/${fan.id}/following`);
    expect(response.body).toEqual({ results: [expect.objectContaining({ id: b.id }), expect.objectContaining({ id: a.id })], next_cursor: null });
  });

  it.each([
    ['garbage', 'not a cursor!'],
    ['valid base64 of nonsense', Buffer.from('{"x":1}').toString('base64url')],
    ["another list's cursor", Buffer.from('["m",5]').toString('base64url')],
    // Each keyset value within what it is compared with: a date JS and Postgres can hold, an int4 user id.
    ['past the last date a Date can hold', Buffer.from('["f",8640000000000001,1]').toString('base64url')],
    ['past the year 9999', Buffer.from('["f",253402300800000,1]').toString('base64url')],
    ['a huge time', Buffer.from('["f",1e300,1]').toString('base64url')],
    ['a user id over 2^31 - 1', Buffer.from('["f",1700000000000,2147483648]').toString('base64url')],
  ])('400s a cursor that is %s', async (_label, cursor) => {
    const response = await get(`/users/${me.user.id}/followers?cursor=${encodeURIComponent(cursor)}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['cursor: Invalid cursor.'] });
  });

  it('accepts the extreme values a cursor may hold', async () => {
    for (const keyset of ['["f",253402300799999,2147483647]', '["f",0,1]']) {
      const response = await get<Page<UserSummary>>(`/users/${me.user.id}/followers?cursor=${Buffer.from(keyset).toString('base64url')}`);
      expect(response.status, keyset).toBe(200);
    }
  });

  it('404s an unknown user and 401s without a token', async () => {
    expect((await get('/users/2000000000/following')).status).toBe(404);
    expect((await get(`/users/${me.user.id}/followers`, null)).status).toBe(401);
  });
});
