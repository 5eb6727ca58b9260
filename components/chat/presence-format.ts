// "Online", "Last seen 5 min. ago", "Last seen yesterday", "Last seen on Jan 5": someone's presence
// in the reader's language. The time itself comes from time-format.ts, so it reads like the times
// in the conversation list.
import type { PeerPresence } from '@/lib/stores/presence-store';
import { daysBetween, formatRelative, parseTime } from './time-format';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export type PresenceText =
  | { key: 'presence.online' }
  | { key: 'presence.lastSeenJustNow' }
  | { key: 'presence.lastSeenAgo'; when: string }
  | { key: 'presence.lastSeenOn'; date: string };

/** What to say about someone's presence; null when nothing is known (hidden, not shared). */
export function presenceText(presence: PeerPresence | undefined, now: Date, language: string): PresenceText | null {
  if (!presence) return null;
  if (presence.online) return { key: 'presence.online' };
  const seen = presence.lastSeenAt ? parseTime(presence.lastSeenAt) : null;
  if (!seen) return null;
  const elapsed = now.getTime() - seen.getTime();
  if (elapsed < MINUTE) return { key: 'presence.lastSeenJustNow' };
  const text = formatRelative(seen, now, language);
  // formatRelative turns to a date from a week back (the same rule, so the two never disagree).
  return elapsed < DAY || daysBetween(seen, now) < 7 ? { key: 'presence.lastSeenAgo', when: text } : { key: 'presence.lastSeenOn', date: text };
}
