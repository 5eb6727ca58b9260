// Follow state per person, as pure functions: how the server's answers (acks, `followed`,
// `follower`), the user's pending choices and REST reads combine. Two separate facts are kept:
// whether the user follows someone (which the user changes) and whether that someone follows back.
import type { FollowedPayload, Profile, UserSummary } from '@/lib/contract';

export interface FollowState {
  /** What the UI shows: the user's pending choice, else the last confirmed state. */
  following: boolean;
  /** The last state the server confirmed; a refused change rolls back to it. */
  confirmed: boolean;
  /** A follow/unfollow is waiting for the server's ack. */
  pending: boolean;
  /** Why the last change was refused (the server's error message), until the next change. */
  error: string | null;
}

export interface FollowGraph {
  follows: Record<number, FollowState>;
  /** Whether each person follows the signed-in user, as last heard. */
  followsYou: Record<number, boolean>;
  profiles: Record<number, Profile>;
}

function confirmedState(following: boolean): FollowState {
  return { following, confirmed: following, pending: false, error: null };
}

/**
 * When each person's follow facts were last heard from something newer than any read: an ack, an
 * event, the user's own change. A read answers with what the server knew when it ran, which can be
 * older than what was heard while it was in flight (a profile read while an unfollow was on its
 * way), so a read takes a mark when it starts, and a person heard of since keeps what was heard.
 * A logical clock: reads never move it, so two reads never hide each other's news.
 */
export function createFollowClock() {
  let now = 0;
  const heardAt = new Map<number, number>();
  return {
    /** Something newer than any read in flight was heard about this person. */
    heard(id: number): void {
      heardAt.set(id, ++now);
    },
    /** Taken as a read starts. */
    mark(): number {
      return now;
    },
    /** Whether something was heard about this person after the mark. */
    movedSince(id: number, mark: number): boolean {
      return (heardAt.get(id) ?? 0) > mark;
    },
    reset(): void {
      heardAt.clear();
    },
  };
}

/**
 * Users just read over REST. A pending change is the user's newer intent and is kept; so is what
 * was heard since the read started (`moved`), which is newer than the read.
 */
export function seedUsers<G extends FollowGraph>(graph: G, users: readonly UserSummary[], moved: (id: number) => boolean = () => false): G {
  const follows = { ...graph.follows };
  const followsYou = { ...graph.followsYou };
  for (const user of users) {
    if (moved(user.id)) continue;
    if (!follows[user.id]?.pending) follows[user.id] = confirmedState(user.is_following);
    followsYou[user.id] = user.follows_you;
  }
  return { ...graph, follows, followsYou };
}

/**
 * A profile just read, as it should be stored. When its follow facts were heard of while the read
 * was in flight, what was heard stays: the shown profile's counts and flags (the ack or event
 * patched them), or, with none shown yet, the flags as the follow state has them; null then means
 * the counts are older than what was heard, and the profile should be read again.
 */
export function freshProfile(graph: FollowGraph, profile: Profile, moved: boolean): { profile: Profile; stale: boolean } {
  if (!moved) return { profile, stale: false };
  const shown = graph.profiles[profile.id];
  if (shown) {
    const { followers_count, following_count, is_following, follows_you } = shown;
    return { profile: { ...profile, followers_count, following_count, is_following, follows_you }, stale: false };
  }
  const follow = graph.follows[profile.id];
  const followsYou = graph.followsYou[profile.id];
  return {
    profile: { ...profile, is_following: follow?.confirmed ?? profile.is_following, follows_you: followsYou ?? profile.follows_you },
    stale: true,
  };
}

/** The user asked to follow (or unfollow): shown at once, confirmed or rolled back later. */
export function beginFollow(follows: FollowGraph['follows'], userId: number, follow: boolean) {
  // Without a known state, asking for a change means the opposite is the current one.
  const before = follows[userId] ?? confirmedState(!follow);
  return { ...follows, [userId]: { ...before, following: follow, pending: true, error: null } };
}

export function rollbackFollow(follows: FollowGraph['follows'], userId: number, error: string) {
  const before = follows[userId];
  if (!before) return follows;
  return { ...follows, [userId]: { ...before, following: before.confirmed, pending: false, error } };
}

function patchProfile(profiles: FollowGraph['profiles'], id: number, patch: (profile: Profile) => Partial<Profile>) {
  const profile = profiles[id];
  return profile ? { ...profiles, [id]: { ...profile, ...patch(profile) } } : profiles;
}

const step = (on: boolean) => (on ? 1 : -1);

/**
 * The signed-in user (follower_id) now follows followee_id, or not: a follow ack or `followed`.
 * The same change arrives twice (ack and event), so counts move only when the state changes.
 */
export function applyFollowed<G extends FollowGraph>(graph: G, payload: FollowedPayload): G {
  const { followee_id: followee, follower_id: me, following, followers_count } = payload;
  const before = graph.follows[followee];
  const changed = before !== undefined && before.confirmed !== following;
  let profiles = patchProfile(graph.profiles, followee, () => ({ followers_count, is_following: following }));
  if (changed) profiles = patchProfile(profiles, me, (mine) => ({ following_count: mine.following_count + step(following) }));
  return { ...graph, follows: { ...graph.follows, [followee]: confirmedState(following) }, profiles };
}

/** Someone (follower_id) followed or unfollowed the signed-in user (followee_id): `follower`. */
export function applyFollower<G extends FollowGraph>(graph: G, payload: FollowedPayload): G {
  const { follower_id: them, followee_id: me, following, followers_count } = payload;
  const before = graph.followsYou[them];
  const changed = before !== undefined && before !== following;
  let profiles = patchProfile(graph.profiles, me, () => ({ followers_count }));
  profiles = patchProfile(profiles, them, (theirs) => ({
    follows_you: following,
    following_count: changed ? theirs.following_count + step(following) : theirs.following_count,
  }));
  return { ...graph, followsYou: { ...graph.followsYou, [them]: following }, profiles };
}
