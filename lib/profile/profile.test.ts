import { describe, expect, it } from 'vitest';
import { checkDisplayName } from './profile';

describe('checkDisplayName', () => {
  it('is the name as the server stores it: invisible characters out, spaces tidied', () => {
    expect(checkDisplayName('  Ada\u200B  \u202ELovelace ')).toEqual({ ok: true, name: 'Ada Lovelace' });
    expect(checkDisplayName('Grace\nHopper')).toEqual({ ok: true, name: 'Grace Hopper' });
  });

  it('refuses a name with nothing visible, and one over 100 characters once cleaned', () => {
    expect(checkDisplayName('')).toEqual({ ok: false, problem: 'empty' });
    expect(checkDisplayName(' \u200B\u2060\u3164 ')).toEqual({ ok: false, problem: 'empty' });
    expect(checkDisplayName('x'.repeat(101))).toEqual({ ok: false, problem: 'tooLong' });
    // 100 visible characters and invisible ones around them: what counts is what stays.
    expect(checkDisplayName(`${'x'.repeat(100)}\u200B\u200B`)).toEqual({ ok: true, name: 'x'.repeat(100) });
  });
});
