// Session lifetimes (SESSION_IDLE_DAYS, SESSION_MAX_DAYS) and the re-check interval
// (SESSION_CHECK_SECONDS): read by server/config.ts, applied by db/sessions.ts and the checks.

/** How long a session lives, and how often a live one is checked again. */
export interface SessionRules {
  /** Unused this long, a session ends. */
  idleMs: number;
  /** Whatever its use, a session ends this long after sign-in. */
  maxMs: number;
  /**
   * An open socket's session, and a user's Firebase account, are checked again at most this often
   * (0: on every event and request, for tests).
   */
  checkIntervalMs: number;
  /** Live sessions one account may hold; past it the least recently used end. Unset: DEFAULT_MAX_SESSIONS_PER_USER. */
  maxPerUser?: number;
}

export const DAY_MS = 86_400_000;

/**
 * - idle 30 days: someone who has not opened Parley for a month signs in again, which is one
 *   click with their Google or GitHub account; a token left on an abandoned device dies.
 * - at most 90 days after sign-in, however used: a stolen token is worth three months at most.
 * - checked every 5 minutes: an open tab notices a sign-out elsewhere, a deactivation or a
 *   disabled Firebase account within minutes, at one Firebase lookup per user per 5 minutes.
 */
export const DEFAULT_SESSION_RULES = {
  idleMs: 30 * DAY_MS,
  maxMs: 90 * DAY_MS,
  checkIntervalMs: 300_000,
} satisfies SessionRules;

/**
 * Live sessions one account may hold (sign-ins not yet ended). 50 is far more browsers and devices
 * than anyone signs in on; past it the least recently used is ended (its sockets too), so a new
 * sign-in always works and a script signing in 1,000 times keeps 50.
 */
export const DEFAULT_MAX_SESSIONS_PER_USER = 50;
