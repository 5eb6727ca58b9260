import { describe, expect, it } from 'vitest';
import { parseBearerToken } from './bearer';

describe('parseBearerToken', () => {
  it('takes the token after the Bearer prefix the client stores', () => {
    expect(parseBearerToken('Bearer abc-DEF_123')).toBe('abc-DEF_123');
  });

  it('accepts the prefix in any case and extra surrounding whitespace', () => {
    expect(parseBearerToken('bearer abc')).toBe('abc');
    expect(parseBearerToken('  BEARER   abc  ')).toBe('abc');
  });

  it('accepts the bare token', () => {
    expect(parseBearerToken('abc-DEF_123')).toBe('abc-DEF_123');
  });

  it.each([
    ['undefined', undefined],
    ['a number', 42],
    ['an object', { token: 'abc' }],
    ['an empty string', ''],
    ['whitespace', '   '],
    ['the prefix alone', 'Bearer'],
    ['the prefix with a blank token', 'Bearer   '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['three parts', 'Bearer abc def'],
    ['control characters', 'abc\u0000def'],
    ['a huge value', 'a'.repeat(600)],
  ])('returns null for %s', (_label, value) => {
    expect(parseBearerToken(value)).toBeNull();
  });
});
