import { describe, expect, it } from 'vitest';
import { presenceText } from './presence-format';

const now = new Date(2025, 5, 15, 12, 0);
const seen = (date: Date) => ({ online: false, lastSeenAt: date.toISOString() });
const MINUTE = 60_000;

describe('presenceText', () => {
  it('says nothing when nothing is known', () => {
    expect(presenceText(undefined, now, 'en')).toBeNull();
    expect(presenceText({ online: false, lastSeenAt: null }, now, 'en')).toBeNull();
  });

  it.each([
    [{ online: true, lastSeenAt: null }, { key: 'presence.online' }],
    [seen(new Date(now.getTime() - 20_000)), { key: 'presence.lastSeenJustNow' }],
    [seen(new Date(now.getTime() - 5 * MINUTE)), { key: 'presence.lastSeenAgo', when: '5 min. ago' }],
    [seen(new Date(2025, 5, 14, 9, 0)), { key: 'presence.lastSeenAgo', when: 'yesterday' }],
    [seen(new Date(2025, 5, 11, 9, 0)), { key: 'presence.lastSeenAgo', when: '4 days ago' }],
    [seen(new Date(2025, 0, 5, 9, 0)), { key: 'presence.lastSeenOn', date: 'Jan 5' }],
  ])('%j → %j', (presence, text) => {
    expect(presenceText(presence, now, 'en')).toEqual(text);
  });

  it('speaks the UI language', () => {
    expect(presenceText(seen(new Date(now.getTime() - 5 * MINUTE)), now, 'es')).toEqual({ key: 'presence.lastSeenAgo', when: 'hace 5 min' });
  });
});
