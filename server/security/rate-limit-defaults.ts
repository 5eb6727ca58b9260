// The rate limits a server has when RATE_LIMIT_* leaves them unset (config.ts reads those).
import type { RateLimits } from './rate-limit';

/**
 * Per-user limits (token buckets: `burst` at once, refilled at a steady rate), sized for people
 * typing and clicking, with room for several tabs and for the outbox catching up after a reconnect.
 * - send 5/s, burst 50: nobody sustains 5 messages a second; 50 lets a backlog queued offline
 *   flush at once (anything past it is retried with backoff by the outbox).
 * - follow 2/s, burst 20: clicking down a list of people; each change notifies the followee, so
 *   a follow/unfollow loop must not become a notification cannon.
 * - follow_pair 1/10min, burst 4, per follower and followee: a follow/unfollow loop against one
 *   person sent them 20 notices; a person changes their mind about someone a few times at most.
 * - search 5/s, burst 20: the client debounces typing at 300 ms (about 3/s at most).
 * - upload 30/min, burst 20: sharing a batch of photos at once. Bytes are budgeted by the quota
 *   (UPLOAD_QUOTA), not here.
 * - sync 2/s, burst 150, in reads of 100 items, taken when the page is asked for by the most its
 *   `limit` lets it read (up to 100 items one, the default 500 five): a reconnect catches up
 *   15,000 missed messages at once (the catch-up benchmark's 10,000 is 101 reads), and its first
 *   page of 100 and the live gap fills of a few items cost one. A page of more than one read
 *   comes out of the burst (the steady window holds two), so past the burst an account reads about
 *   two hundred items a second. Each read is among the most expensive a socket can ask for; one
 *   account asking for 500 items from the start again and again, four pages a second, took most
 *   of a core and doubled everyone's p99 (bench, "flood").
 * - page 3/s, burst 30, in pages of 50 messages (the app's page is one, the largest, 100, two):
 *   a page of one conversation's messages (GET …/messages), the most expensive read over HTTP.
 *   Opening a conversation takes one, hovering a row one, scrolling back one a screenful; 30 is a
 *   fling through a long history. Before it had its own, one account read twenty pages a second
 *   under `request` and slowed everyone's sends; at one point each for pages of 100, six a second.
 * - event 10/s, burst 50: every other socket event (init, read, and any added later). A read per
 *   conversation opened and an init per tab connecting never come near it; each read is two
 *   events to every tab of the user, so this also bounds their fan-out.
 * - connect 1/s, burst 40: a socket opened (its handshake). Twice the socket cap at once (every
 *   tab of a browser reopened), then one a second: a network coming back reconnects each tab
 *   once. A reconnect storm reads the session and the account's counts every time; this prices it,
 *   per token (taken before the session is read, so a refusal reads nothing) and per account.
 * - request 10/s, burst 100: every authenticated HTTP request without a budget of its own. Opening
 *   the app costs a handful; scrolling a thread a page a second.
 * - export 6/h, burst 3: a download of all the account's data reads its whole history; a person
 *   wants it once, maybe again after a failed download, never in a loop.
 * - typing 2/s, burst 10: a typing client sends one signal every 3 s (TYPING_REFRESH_MS) and one
 *   when it stops; several tabs or a quick hop between conversations stay well inside.
 * - presence 1/s, burst 10: a client subscribes again when its conversation list or open thread
 *   changes (debounced) and after each reconnect.
 * - profile 1/min, burst 10: a new name or photo goes at once to everyone the user has a
 *   conversation with; a person tries a few names or photos in a row, then rarely again. A name
 *   flickering in everyone's list must not become a way to shout at them.
 * - report 20/h, burst 10: a person reports a few messages of someone in a row; one account
 *   filed 286 reports in 15 s. Reports of the same person add to one open report anyway.
 * Per client address (behind TRUST_PROXY, the address the proxy saw):
 * - signup 20/h, burst 20: new accounts (a first sign-in) from one address; a school or office
 *   behind one address signs up a class at once, a script made 100 in 5 s.
 * - download 10/s, burst 200, in units of one file plus one per MiB sent: a thread's worth of
 *   photos at once, or three 50 MB files, then 10 MiB/s (80 Mbit/s, more than most links carry to
 *   one client); one client drew 72 MB/s before, and at 20 MiB/s one address's downloads still
 *   took a third of a core and doubled everyone's p99 (BENCHMARKS.md, "flood").
 */
export const DEFAULT_RATE_LIMITS = {
  send: { perSecond: 5, burst: 50 },
  follow: { perSecond: 2, burst: 20 },
  follow_pair: { perSecond: 1 / 600, burst: 4 },
  sync: { perSecond: 2, burst: 150 },
  page: { perSecond: 3, burst: 30 },
  search: { perSecond: 5, burst: 20 },
  upload: { perSecond: 30 / 60, burst: 20 },
  event: { perSecond: 10, burst: 50 },
  connect: { perSecond: 1, burst: 40 },
  request: { perSecond: 10, burst: 100 },
  export: { perSecond: 6 / 3600, burst: 3 },
  typing: { perSecond: 2, burst: 10 },
  presence: { perSecond: 1, burst: 10 },
  profile: { perSecond: 1 / 60, burst: 10 },
  report: { perSecond: 20 / 3600, burst: 10 },
  signup: { perSecond: 20 / 3600, burst: 20 },
  download: { perSecond: 10, burst: 200 },
} satisfies RateLimits;
