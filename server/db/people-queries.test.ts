import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from './engine/open-database';
import { countFollowers, getProfile, listFollows, searchUsers, searchUsersQuery, setFollow, type FollowKey } from './people';
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
  it('finds a name by the start of any of its words, ignoring case, and never returns emails', async () => {
    const me = await newUser('Searcher');
    const bob = await newUser('Bob Dupont', 'bob@example.com');
    const ids = async (query: string) => (await searchUsers(db, me.id, query, 20)).map((u) => u.id);
    expect(await ids('dupont')).toEqual([bob.id]);
    expect(await ids('DUP')).toEqual([bob.id]);
    expect(await ids('bob d')).toEqual([bob.id]);
    expect(await ids('d bob')).toEqual([bob.id]); // every word, in any order
    expect(await ids('upont')).toEqual([bob.id]); // three letters or more: anywhere in a word
    expect(await ids('bob x')).toEqual([]);
    expect(await ids('bob up')).toEqual([]); // shorter: only the start of a word
    expect((await searchUsers(db, me.id, 'dupont', 20))[0]).toEqual({
      id: bob.id,
      username: 'Bob Dupont',
      avatar: null,
      is_following: false,
      follows_you: false,
      deleted: false,
      can_message: true,
    });
  });

  it('matches an email only when the whole address is typed, in any case: never a prefix of it', async () => {
    const me = await newUser('Searcher');
    const target = await newUser('Unrelated Name', 'Victim.Person@Example.com');
    const ids = async (query: string) => (await searchUsers(db, me.id, query, 20)).map((u) => u.id);
    // What an attacker recovering the address one character at a time would type.
    for (const attempt of ['v', 'vi', 'victim', 'victim.person', 'victim.person@', 'victim.person@example.co']) {
      expect(await ids(attempt), attempt).toEqual([]);
    }
    expect(await ids('victim.person@example.com')).toEqual([target.id]);
    expect(await ids('  VICTIM.PERSON@EXAMPLE.COM ')).toEqual([target.id]);
  });

  it('finds words joined by dots, hyphens, underscores and @ in a name, in any script', async () => {
    const me = await newUser('Searcher');
    const dotted = await newUser('kq.smithers');
    const hyphen = await newUser('Jean-Kqluc Picard');
    const underscore = await newUser('kqgrace_hopper');
    const greek = await newUser('Ελένη Kqpapadopoulou');
    const persian = await newUser('محمد رضایی');
    const cjk = await newUser('张伟');
    const ids = async (query: string) => (await searchUsers(db, me.id, query, 20)).map((u) => u.id);
    expect(await ids('smithers')).toEqual([dotted.id]);
    expect(await ids('kqluc')).toEqual([hyphen.id]);
    expect(await ids('jean-kqluc')).toEqual([hyphen.id]);
    expect(await ids('hopper')).toEqual([underscore.id]);
    expect(await ids('ΕΛΈ')).toEqual([greek.id]);
    expect(await ids('رضا')).toEqual([persian.id]);
    expect(await ids('张')).toEqual([cjk.id]);
  });

  it('puts the whole name first, then names starting with the query, then other word starts, by name', async () => {
    const me = await newUser('Searcher');
    const inside = await newUser('Alpha Wrenfield');
    const starts = await newUser('Wrenfield Zulu');
    const startsToo = await newUser('Wrenfield Bravo');
    const whole = await newUser('Wrenfield');
    const byEmail = await newUser('Zz Other', 'wrenfield@example.com');
    expect((await searchUsers(db, me.id, 'wrenfield', 20)).map((u) => u.id)).toEqual([whole.id, startsToo.id, starts.id, inside.id]);
    expect((await searchUsers(db, me.id, 'wrenfield@example.com', 20)).map((u) => u.id)).toEqual([byEmail.id]);
  });

  it('leaves out the viewer and inactive users', async () => {
    const me = await newUser('Xanthippe One');
    const other = await newUser('Xanthippe Two');
    const inactive = await newUser('Xanthippe Three', 'xan@example.com');
    await setUserActive(db, inactive.id, false);
    expect((await searchUsers(db, me.id, 'xanthippe', 20)).map((u) => u.id)).toEqual([other.id]);
    expect(await searchUsers(db, me.id, 'xan@example.com', 20)).toEqual([]);
  });

  it('takes tsquery operators, quotes, backslashes and LIKE wildcards as separators, and honours the limit', async () => {
    const me = await newUser('Wildcard viewer');
    const percent = await newUser('100%_sure');
    const more = await newUser('100 and more');
    for (const hostile of ["100' | 'x", '100:* | !x', '(100 & !', '100\\', "'", '!', '&|', '%_']) {
      await expect(searchUsers(db, me.id, hostile, 20), hostile).resolves.toBeInstanceOf(Array);
    }
    expect((await searchUsers(db, me.id, "100' | 'x", 20)).map((u) => u.id)).toEqual([]); // both words must match
    // Both have the word 100; only one name starts with "100%_" itself (wildcards literal).
    expect((await searchUsers(db, me.id, '100%_', 20)).map((u) => u.id)).toEqual([percent.id, more.id]);
    expect(await searchUsers(db, me.id, '%_', 20)).toEqual([]);
    expect(await searchUsers(db, me.id, '100', 1)).toHaveLength(1);
  });

  it('is served by the indexes, never a scan of users', async () => {
    const me = await newUser('Planner');
    const plan = async (query: string) => {
      const built = searchUsersQuery(db, me.id, query, 20)!;
      // A handful of rows would make any plan a sequential scan: ask whether the index can serve it.
      return db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const rows = await tx.execute<{ 'QUERY PLAN': string }>(sql`explain ${built}`);
        return (rows as unknown as { rows: { 'QUERY PLAN': string }[] }).rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    };
    expect(await plan('dupont')).toContain('Bitmap Index Scan on users_username_trgm_idx');
    expect(await plan('du')).toContain('Bitmap Index Scan on users_username_search_idx');
    const byEmail = await plan('someone@example.com');
    expect(byEmail).toContain('users_username_trgm_idx');
    expect(byEmail).toContain('users_email_lower_idx');
    expect(byEmail).not.toContain('Seq Scan');
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
      conversation_id: null,
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
