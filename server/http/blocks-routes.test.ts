import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Ack, BlockedUser, ConversationSummaryPage, FollowedPayload, MessageCountPayload, Page, SafetyChange, UserSummary } from '../../lib/contract';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, send, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer({ inMemory: true }));

const CANNOT_FOLLOW = { error: { non_field_errors: ["user_id: You can't follow this person."] } };
const follow = (socket: ClientSocket, user: SignedInUser) =>
  emitWithAck<Ack<FollowedPayload>>(socket, 'follow', { user_id: user.user.id, follow: true });
const block = (by: SignedInUser, whom: number, method: 'PUT' | 'DELETE' = 'PUT') =>
  api(t.url, `/users/${whom}/block`, { method, token: by.bearer });
const conversations = async (user: SignedInUser) =>
  (await api<ConversationSummaryPage>(t.url, '/c', { token: user.bearer })).body.results.map((row) => [row.user?.id, row.unread_count]);
const unreadTotal = async (user: SignedInUser) => {
  const socket = await tabs.open(user, { init: false });
  const counted = new Promise<MessageCountPayload>((resolve) => socket.once('message_count', resolve));
  await emitWithAck(socket, 'init', { id: user.user.id });
  return (await counted).count;
};
const search = async (viewer: SignedInUser, q: string) =>
  (await api<Page<UserSummary>>(t.url, `/users/search?q=${encodeURIComponent(q)}`, { token: viewer.bearer })).body.results.map((u) => u.id);

describe('blocking', () => {
  it('hides the blocked person’s conversation and unread messages from the blocker, and every tab hears of it', async () => {
    const [kim, lou, max] = await Promise.all([signIn(t.url, 'Kim'), signIn(t.url, 'Lou'), signIn(t.url, 'Max')]);
    const [louTab, maxTab, kimOther] = await Promise.all([tabs.open(lou), tabs.open(max), tabs.open(kim)]);
    await send(louTab, kim, 'one');
    await send(louTab, kim, 'two');
    await send(maxTab, kim, 'hi');
    expect(await conversations(kim)).toEqual([[max.user.id, 1], [lou.user.id, 2]]);
    expect(await unreadTotal(kim)).toBe(3);
    const changes = record(kimOther, 'safety_changed');
    const counts = record(kimOther, 'message_count');

    expect(await block(kim, lou.user.id)).toMatchObject({ status: 200, body: { user_id: lou.user.id, blocked: true } });
    await expect.poll(() => changes).toEqual([{ type: 'block', user_id: lou.user.id, blocked: true } satisfies SafetyChange]);
    await expect.poll(() => counts).toEqual([{ count: 1 }]);
    // The header total is the sum of the visible badges.
    expect(await conversations(kim)).toEqual([[max.user.id, 1]]);
    expect(await unreadTotal(kim)).toBe(1);
    // Lou still sees the conversation (a blocked person is not told).
    expect(await conversations(lou)).toEqual([[kim.user.id, 0]]);

    const blocks = await api<Page<BlockedUser>>(t.url, '/blocks', { token: kim.bearer });
    expect(blocks.body).toEqual({
      results: [{ id: lou.user.id, username: 'Lou', avatar: 'https://example.com/avatar.png', blocked_at: expect.stringMatching(/Z$/) }],
      next_cursor: null,
    });

    expect(await block(kim, lou.user.id, 'DELETE')).toMatchObject({ status: 200, body: { blocked: false } });
    await expect.poll(() => changes.at(-1)).toEqual({ type: 'block', user_id: lou.user.id, blocked: false });
    await expect.poll(() => counts.at(-1)).toEqual({ count: 3 });
    expect(await conversations(kim)).toEqual([[max.user.id, 1], [lou.user.id, 2]]);
    expect((await api<Page<BlockedUser>>(t.url, '/blocks', { token: kim.bearer })).body.results).toEqual([]);
  });

  it('removes follows both ways and refuses new ones both ways with the same error', async () => {
    const [ned, oz] = await Promise.all([signIn(t.url, 'Ned'), signIn(t.url, 'Oz')]);
    const [nedTab, ozTab] = await Promise.all([tabs.open(ned), tabs.open(oz)]);
    await follow(nedTab, oz);
    await follow(ozTab, ned);
    const ozFollowed = record(ozTab, 'followed');
    const ozFollower = record(ozTab, 'follower');

    expect((await block(ned, oz.user.id)).status).toBe(200);
    const following = async (user: SignedInUser, side: 'followers' | 'following') =>
      (await api<Page<UserSummary>>(t.url, `/users/${user.user.id}/${side}`, { token: user.bearer })).body.results;
    expect(await following(ned, 'following')).toEqual([]);
    expect(await following(ned, 'followers')).toEqual([]);
    // Oz's tabs learn the follows ended, as they would from an unfollow.
    await expect.poll(() => ozFollowed.map((p) => [p.followee_id, p.following])).toEqual([[ned.user.id, false]]);
    await expect.poll(() => ozFollower.map((p) => [p.follower_id, p.following])).toEqual([[ned.user.id, false]]);

    expect(await follow(ozTab, ned)).toEqual(CANNOT_FOLLOW);
    expect(await follow(nedTab, oz)).toEqual(CANNOT_FOLLOW);
    // Unfollowing stays possible (a no-op here).
    expect(await emitWithAck(ozTab, 'follow', { user_id: ned.user.id, follow: false })).toMatchObject({ data: { following: false } });
  });

  it('hides each from the other in search', async () => {
    const tag = randomUUID().slice(0, 8);
    const [pia, quinn, rae] = await Promise.all([signIn(t.url, `Pia${tag}`), signIn(t.url, `Pia${tag}q`), signIn(t.url, `Pia${tag}r`)]);
    expect((await search(rae, `Pia${tag}`)).sort()).toEqual([pia.user.id, quinn.user.id].sort());
    expect((await block(pia, quinn.user.id)).status).toBe(200);
    expect(await search(pia, `Pia${tag}`)).toEqual([rae.user.id]);
    expect(await search(quinn, `Pia${tag}`)).toEqual([rae.user.id]);
    expect((await search(rae, `Pia${tag}`)).sort()).toEqual([pia.user.id, quinn.user.id].sort());
  });

  it('refuses blocking yourself (400) and unknown people (404); blocking twice is harmless', async () => {
    const [sam, tom] = await Promise.all([signIn(t.url, 'Sam'), signIn(t.url, 'Tom')]);
    expect(await block(sam, sam.user.id)).toMatchObject({ status: 400, body: { non_field_errors: ['id: You cannot block yourself.'] } });
    expect(await block(sam, 2_000_000_000)).toMatchObject({ status: 404, body: { msg: 'User not found.' } });
    expect((await block(sam, tom.user.id)).status).toBe(200);
    expect((await block(sam, tom.user.id)).status).toBe(200);
    expect((await api<Page<BlockedUser>>(t.url, '/blocks', { token: sam.bearer })).body.results.map((u) => u.id)).toEqual([tom.user.id]);
  });
});
