import { beforeAll, describe, expect, it } from 'vitest';
import type { Ack, FollowedPayload, Profile } from '../../lib/contract';
import { setUserActive } from '../db/users';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';

const { t, tabs } = serverWithTabs(() => startTestServer());
let alice: SignedInUser;
beforeAll(async () => {
  alice = await signIn(t.url, 'Alice');
});

const follow = (tab: Parameters<typeof emitWithAck>[0], payload: unknown) =>
  emitWithAck<Ack<FollowedPayload>>(tab, 'follow', payload);

describe('follow', () => {
  it('follows, then unfollows: the follower’s tabs get `followed`, the followee’s get `follower`, with counts', async () => {
    const [fan, star] = await Promise.all([signIn(t.url, 'Fan'), signIn(t.url, 'Star')]);
    const [fanTab, fanOther, starTab1, starTab2] = await Promise.all([
      tabs.open(fan),
      tabs.open(fan),
      tabs.open(star),
      tabs.open(star),
    ]);
    const followedEvents = [fanTab, fanOther].map((tab) => record(tab, 'followed'));
    const followerEvents = [starTab1, starTab2].map((tab) => record(tab, 'follower'));
    const expected: FollowedPayload = {
      follower_id: fan.user.id,
      followee_id: star.user.id,
      following: true,
      followers_count: 1,
    };

    expect(await follow(fanTab, { user_id: star.user.id, follow: true })).toEqual({ data: expected });
    await expect.poll(() => [...followedEvents, ...followerEvents]).toEqual([[expected], [expected], [expected], [expected]]);
    const profile = await api<Profile>(t.url, `/users/${star.user.id}`, { token: fan.bearer });
    expect(profile.body).toMatchObject({ is_following: true, followers_count: 1 });

    const unfollowed = { ...expected, following: false, followers_count: 0 };
    const starHears = nextEvent(starTab1, 'follower');
    expect(await follow(fanOther, { user_id: star.user.id, follow: false })).toEqual({ data: unfollowed });
    expect(await starHears).toEqual(unfollowed);
    await expect.poll(() => followedEvents[0]).toEqual([expected, unfollowed]);
  });

  it('repeats idempotently: the follower’s tabs settle again, the followee hears nothing new', async () => {
    const [fan, star] = await Promise.all([signIn(t.url, 'Fan'), signIn(t.url, 'Star')]);
    const [fanTab, starTab] = await Promise.all([tabs.open(fan), tabs.open(star)]);
    const heard = record(starTab, 'follower');
    const settled = record(fanTab, 'followed');
    await follow(fanTab, { user_id: star.user.id, follow: true });
    const again = await follow(fanTab, { user_id: star.user.id, follow: true });
    expect(again).toEqual({ data: expect.objectContaining({ following: true, followers_count: 1 }) });
    // Barrier: a real change after the repeat; the followee must have heard only the two changes.
    await follow(fanTab, { user_id: star.user.id, follow: false });
    await expect.poll(() => heard.map((p) => p.following)).toEqual([true, false]);
    await expect.poll(() => settled.map((p) => p.following)).toEqual([true, true, false]);
  });

  it('limits one follower’s toggles of one person: a follow/unfollow loop reaches them a few times', async () => {
    const [stranger, quiet, other] = await Promise.all([signIn(t.url, 'Stranger'), signIn(t.url, 'Quiet'), signIn(t.url, 'Other')]);
    const [strangerTab, quietTab] = await Promise.all([tabs.open(stranger), tabs.open(quiet)]);
    const heard = record(quietTab, 'follower');
    const acks = [];
    for (let i = 0; i < 10; i++) acks.push(await follow(strangerTab, { user_id: quiet.user.id, follow: i % 2 === 0 }));
    // The pair's budget: four changes at once (config.ts, follow_pair), then refused.
    expect(acks.slice(0, 4).every((ack) => 'data' in ack)).toBe(true);
    expect(acks.slice(4)).toEqual(Array(6).fill({ error: { msg: expect.stringMatching(/^Too many requests\. Try again in \d+ s\.$/) } }));
    // Another person is the stranger's to follow still: the budget is the pair's.
    expect(await follow(strangerTab, { user_id: other.user.id, follow: true })).toMatchObject({ data: { following: true } });
    await expect.poll(() => heard.map((event) => event.following)).toEqual([true, false, true, false]);
  });

  it.each([
    ['yourself', () => ({ user_id: alice.user.id, follow: true }), { error: { non_field_errors: [expect.any(String)] } }],
    ['an unknown user', () => ({ user_id: 2_000_000_000, follow: true }), { error: { msg: 'User not found.' } }],
    ['without a follow flag', () => ({ user_id: 5 }), { error: { non_field_errors: [expect.any(String)] } }],
    ['with a string flag', () => ({ user_id: 5, follow: 'yes' }), { error: { non_field_errors: [expect.any(String)] } }],
  ])('refuses to follow %s', async (_label, payload, expected) => {
    const tab = await tabs.open(alice);
    const followed = record(tab, 'followed');
    expect(await follow(tab, payload())).toEqual(expected);
    expect(followed).toEqual([]);
  });

  it('refuses an inactive user and a socket without init', async () => {
    const gone = await signIn(t.url, 'Gone');
    await setUserActive(t.db, gone.user.id, false);
    const tab = await tabs.open(alice);
    expect(await follow(tab, { user_id: gone.user.id, follow: true })).toEqual({ error: { msg: 'User not found.' } });
    const early = await tabs.open(alice, { init: false });
    expect(await follow(early, { user_id: gone.user.id, follow: true })).toEqual({ error: { msg: expect.stringMatching(/init/) } });
  });
});
