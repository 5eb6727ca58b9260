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
 * The follow facts as they stand when a REST read starts. A read answers with what the server
 * knew when it ran, which can be older than an ack or event heard while it was in flight (a
 * profile read while an unfollow was on its way): a person whose facts moved since the mark is
 * kept as heard, never set back by the slower answer.
 */
export interface FollowMark {
  follows: FollowGraph['follows'];
  followsYou: FollowGraph['followsYou'];
}

export function followMark(graph: FollowGraph): FollowMark {
  return { follows: graph.follows, followsYou: graph.followsYou };
}

/** Whether anything about following this person changed since the mark (entries are replaced, never edited). */
function followMovedSince(graph: FollowGraph, mark: FollowMark, id: number): boolean {
  return graph.follows[id] !== mark.follows[id] || graph.followsYou[id] !== mark.followsYou[id];
}

/**
 * Users just read over REST. A pending change is the user's newer intent and is kept; so is what
 * was heard after `mark` (when the read started), which is newer than the read.
 */
export function seedUsers<G extends FollowGraph>(graph: G, users: readonly UserSummary[], mark?: FollowMark): G {
  const follows = { ...graph.follows };
  const followsYou = { ...graph.followsYou };
  for (const user of users) {
    if (mark && followMovedSince(graph, mark, user.id)) continue;
    if (!follows[user.id]?.pending) follows[user.id] = confirmedState(user.is_following);
    followsYou[user.id] = user.follows_you;
  }
  return { ...graph, follows, followsYou };
}

/**
 * A profile just read, as it should be stored: when its follow facts moved while the read was in
 * flight, the counts and flags already shown (set by the ack or event that moved them) stay.
 */
export function freshProfile(graph: FollowGraph, profile: Profile, mark: FollowMark): Profile {
  const shown = graph.profiles[profile.id];
  if (!shown || !followMovedSince(graph, mark, profile.id)) return profile;
  const { followers_count, following_count, is_following, follows_you } = shown;
  return { ...profile, followers_count, following_count, is_following, follows_you };
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
