import { describe, expect, it } from 'vitest';
import { daysBetween, formatRelative, formatShort } from './time-format';

const now = new Date(2025, 5, 15, 12, 0);
const ago = (ms: number) => new Date(now.getTime() - ms);
const MINUTE = 60_000;

describe('formatRelative', () => {
  it.each([
    [ago(20_000), 'now'],
    [ago(5 * MINUTE), '5 min. ago'],
    [ago(3 * 60 * MINUTE), '3 hr. ago'],
    [new Date(2025, 5, 14, 9, 0), 'yesterday'],
    [new Date(2025, 5, 11, 9, 0), '4 days ago'],
    [new Date(2025, 0, 5, 9, 0), 'Jan 5'],
    [new Date(2024, 0, 5, 9, 0), 'Jan 5, 2024'],
  ])('%s → %s', (date, text) => {
    expect(formatRelative(date, now, 'en')).toBe(text);
  });

  it('speaks the UI language', () => {
    expect(formatRelative(ago(5 * MINUTE), now, 'fr')).toBe('il y a 5\u00a0min');
    expect(formatRelative(new Date(2025, 5, 14, 9, 0), now, 'es')).toBe('ayer');
  });

  it('never says "in the future" for a clock slightly ahead of ours', () => {
    expect(formatRelative(new Date(now.getTime() + 30_000), now, 'en')).toBe('now');
  });
});

describe('formatShort', () => {
  it.each([
    [ago(5 * MINUTE), '11:55 AM'],
    [new Date(2025, 5, 15, 0, 5), '12:05 AM'],
    [new Date(2025, 5, 14, 23, 0), 'Sat'],
    [new Date(2025, 5, 9, 9, 0), 'Mon'],
    [new Date(2025, 5, 8, 9, 0), 'Jun 8'],
    [new Date(2024, 11, 31, 9, 0), 'Dec 31, 2024'],
  ])('%s → %s', (date, text) => {
    expect(formatShort(date, now, 'en')).toBe(text);
  });

  it('speaks the UI language', () => {
    expect(formatShort(ago(5 * MINUTE), now, 'fr')).toBe('11:55');
    expect(formatShort(new Date(2025, 5, 14, 9, 0), now, 'es')).toBe('sáb');
    expect(formatShort(new Date(2025, 0, 5, 9, 0), now, 'fr')).toBe('5 janv.');
  });
});

describe('daysBetween', () => {
  it('counts calendar days, not 24-hour periods', () => {
    expect(daysBetween(new Date(2025, 5, 14, 23, 59), new Date(2025, 5, 15, 0, 1))).toBe(1);
    expect(daysBetween(new Date(2025, 5, 15, 0, 1), new Date(2025, 5, 15, 23, 59))).toBe(0);
  });
});
