import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from './open-database';
import { countFollowers, getProfile, listFollows, searchUsers, setFollow, type FollowKey } from './people';
import { follows, type UserRow } from './schema';
import { setUserActive, upsertUserFromFirebase } from './users';

let database: Database;
let db: Db;
let counter = 0;
beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory' });
  db = database.db;
});
afterAll(() => database.close());

const newUser = (username: string | null, email: string | null = null) =>
  upsertUserFromFirebase(db, { firebaseUid: `p-${++counter}`, username, email, avatar: null, socialType: 'google' });

describe('searchUsers', () => {
  it('matches a username or email prefix, ignoring case, and never returns emails', async () => {
    const me = await newUser('Searcher');
    const zed = await newUser('Zedekiah Quill', 'zq@example.com');
    const byEmail = await newUser(null, 'ZedMail@Example.com');
    await newUser('Quill Zedekiah', 'quill@example.com'); // contains the query, does not start with it

    const results = await searchUsers(db, me.id, 'zED', 20);
    expect(results.map((u) => u.id)).toEqual([zed.id, byEmail.id]);
    expect(results[0]).toEqual({ id: zed.id, username: 'Zedekiah Quill', avatar: null, is_following: false, follows_you: false, deleted: false });
    expect((await searchUsers(db, me.id, 'zedmail@ex', 20)).map((u) => u.id)).toEqual([byEmail.id]);
  });

  it('leaves out the viewer and inactive users', async () => {
    const me = await newUser('Xanthippe One');
    const other = await newUser('Xanthippe Two');
    const inactive = await newUser('Xanthippe Three');
    await setUserActive(db, inactive.id, false);
    expect((await searchUsers(db, me.id, 'xanthippe', 20)).map((u) => u.id)).toEqual([other.id]);
  });

  it('takes LIKE wildcards literally and honours the limit', async () => {
    const me = await newUser('Wildcard viewer');
    const percent = await newUser('100%_sure');
    await newUser('100 and more');
    await newUser('100x_sure');
    expect((await searchUsers(db, me.id, '100%_', 20)).map((u) => u.id)).toEqual([percent.id]);
    expect(await searchUsers(db, me.id, '100', 2)).toHaveLength(2);
  });

  it('tells the viewer who they follow and who follows them', async () => {
    const me = await newUser('Viewer');
    const friend = await newUser('Yolanda Friend');
    const fan = await newUser('Yolanda Fan');
    await setFollow(db, me.id, friend.id, true);
    await setFollow(db, fan.id, me.id, true);
    const results = await searchUsers(db, me.id, 'yolanda', 20);
    expect(results.map((u) => [u.username, u.is_following, u.follows_you])).toEqual([
      ['Yolanda Fan', false, true],
      ['Yolanda Friend', true, false],
    ]);
  });
});

describe('follows', () => {
  it('follows and unfollows idempotently, reporting changes and counts', async () => {
    const [a, b] = [await newUser('a'), await newUser('b')];
    expect(await setFollow(db, a.id, b.id, true)).toEqual({ changed: true, followersCount: 1 });
    expect(await setFollow(db, a.id, b.id, true)).toEqual({ changed: false, followersCount: 1 });
    expect(await db.select().from(follows).where(eq(follows.followeeId, b.id))).toHaveLength(1);
    expect(await setFollow(db, a.id, b.id, false)).toEqual({ changed: true, followersCount: 0 });
    expect(await setFollow(db, a.id, b.id, false)).toEqual({ changed: false, followersCount: 0 });
  });

  it('gives profiles with counts that leave inactive accounts out', async () => {
    const [me, star, fan, gone] = [await newUser('me'), await newUser('Star'), await newUser('fan'), await newUser('gone')];
    await setFollow(db, me.id, star.id, true);
    await setFollow(db, fan.id, star.id, true);
    await setFollow(db, gone.id, star.id, true);
    await setFollow(db, star.id, me.id, true);
    await setUserActive(db, gone.id, false);

    expect(await getProfile(db, me.id, star.id)).toEqual({
      id: star.id,
      username: 'Star',
      avatar: null,
      is_following: true,
      follows_you: true,
      deleted: false,
      followers_count: 2,
      following_count: 1,
      blocked: false,
      can_message: true,
    });
    expect(await countFollowers(db, star.id)).toBe(2);
    expect(await getProfile(db, me.id, gone.id)).toBeNull();
    expect(await getProfile(db, me.id, 2_000_000_000)).toBeNull();
  });

  it('pages follow lists newest first without gaps or duplicates', async () => {
    const star = await newUser('Popular');
    const fans: UserRow[] = [];
    for (let i = 0; i < 5; i++) {
      const fan = await newUser(`fan ${i}`);
      fans.push(fan);
      await setFollow(db, fan.id, star.id, true);
    }
    // The oldest account followed last; fans 3 and 4 in the same millisecond (the id breaks the tie).
    const offsets = [10, 1, 2, 3, 3];
    for (const [i, fan] of fans.entries()) {
      await db
        .update(follows)
        .set({ createdAt: new Date(Date.UTC(2030, 0, 1) + offsets[i]!) })
        .where(and(eq(follows.followerId, fan.id), eq(follows.followeeId, star.id)));
    }

    const seen: number[] = [];
    let after: FollowKey | null = null;
    do {
      const page = await listFollows(db, 'followers', star.id, star.id, after, 2);
      seen.push(...page.results.map((u) => u.id));
      after = page.next;
    } while (after);
    expect(seen).toEqual([0, 4, 3, 2, 1].map((i) => fans[i]!.id));

    // Fan 1 looks at whom fan 0 follows: the star, whom fan 1 follows too.
    const following = await listFollows(db, 'following', fans[1]!.id, fans[0]!.id, null, 10);
    expect(following.results.map((u) => [u.id, u.is_following, u.follows_you])).toEqual([[star.id, true, false]]);
  });
});
