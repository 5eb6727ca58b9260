// Message times in the reader's language, with Intl (no date library on /main's first load).

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const formatters = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function cached<F extends Intl.DateTimeFormat | Intl.RelativeTimeFormat>(key: string, make: () => F): F {
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter as F;
}

const relative = (language: string) =>
  cached(`rel:${language}`, () => new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' }));
const dateTime = (language: string, options: Intl.DateTimeFormatOptions) =>
  cached(`dt:${language}:${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(language, options));

export function parseTime(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Midnight of the day `date` falls on, in local time. */
function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** Whole calendar days from `date` to `now` (0: same day, 1: yesterday), in local time. */
export function daysBetween(date: Date, now: Date): number {
  return Math.round((startOfDay(now) - startOfDay(date)) / DAY);
}

/**
 * For the conversation list: "now", "5 min. ago", "3 hr. ago", "yesterday", "4 days ago", then
 * the date ("Jan 5", with the year when it is not this year's).
 */
export function formatRelative(date: Date, now: Date, language: string): string {
  const elapsed = Math.max(0, now.getTime() - date.getTime());
  if (elapsed < MINUTE) return relative(language).format(0, 'second');
  if (elapsed < HOUR) return relative(language).format(-Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return relative(language).format(-Math.floor(elapsed / HOUR), 'hour');
  const days = daysBetween(date, now);
  if (days < 7) return relative(language).format(-Math.max(1, days), 'day');
  const sameYear = date.getFullYear() === now.getFullYear();
  return dateTime(language, sameYear ? { month: 'short', day: 'numeric' } : { dateStyle: 'medium' }).format(date);
}

/** "8:22 PM" / "20:22": the time under a message. */
export function formatClock(date: Date, language: string): string {
  return dateTime(language, { timeStyle: 'short' }).format(date);
}

/**
 * For a list of found messages: the time for today's ("20:22"), the weekday for the six days
 * before ("Tue"), then the date ("Jan 5", with the year when it is not this year's).
 */
export function formatShort(date: Date, now: Date, language: string): string {
  const days = daysBetween(date, now);
  if (days <= 0) return formatClock(date, language);
  if (days < 7) return dateTime(language, { weekday: 'short' }).format(date);
  const sameYear = date.getFullYear() === now.getFullYear();
  return dateTime(language, sameYear ? { month: 'short', day: 'numeric' } : { dateStyle: 'medium' }).format(date);
}

/** The full date and time, for tooltips. */
export function formatFull(date: Date, language: string): string {
  return dateTime(language, { dateStyle: 'full', timeStyle: 'short' }).format(date);
}

/** A day separator's date when it is neither today nor yesterday. */
export function formatDay(date: Date, now: Date, language: string): string {
  const sameYear = date.getFullYear() === now.getFullYear();
  return dateTime(language, sameYear ? { weekday: 'long', month: 'long', day: 'numeric' } : { dateStyle: 'full' }).format(date);
}
