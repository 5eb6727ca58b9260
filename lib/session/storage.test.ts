import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToken, getStoredLocale, getStoredToken, storeLocale, storeToken } from './storage';

describe('session storage', () => {
  beforeEach(() => {
    localStorage.clear();
  });

  it('stores the token as the word Bearer, a space, then the token', () => {
    storeToken('abc');
    expect(localStorage.getItem('token')).toBe('Bearer abc');
    expect(getStoredToken()).toBe('Bearer abc');
  });

  it('returns the stored value as is, without re-prefixing it', () => {
    localStorage.setItem('token', 'Bearer xyz');
    expect(getStoredToken()).toBe('Bearer xyz');
  });

  it('reads no token when nothing or an empty value is stored', () => {
    expect(getStoredToken()).toBeNull();
    localStorage.setItem('token', '');
    expect(getStoredToken()).toBeNull();
  });

  it('stores the locale under "locale"', () => {
    storeLocale('fr');
    expect(localStorage.getItem('locale')).toBe('fr');
    expect(getStoredLocale()).toBe('fr');
  });

  it('clearToken removes only the token', () => {
    storeToken('abc');
    storeLocale('de');
    localStorage.setItem('unrelated', 'kept');
    clearToken();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('locale')).toBe('de');
    expect(localStorage.getItem('unrelated')).toBe('kept');
  });

  it('behaves as signed out when localStorage is unavailable', () => {
    const blocked = vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(getStoredToken()).toBeNull();
    expect(getStoredLocale()).toBeNull();
    expect(() => storeToken('abc')).not.toThrow();
    expect(() => storeLocale('en')).not.toThrow();
    expect(() => clearToken()).not.toThrow();
    blocked.mockRestore();
  });

  it('does not throw when writing fails (quota)', () => {
    const full = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(() => storeToken('abc')).not.toThrow();
    expect(getStoredToken()).toBeNull();
    full.mockRestore();
  });
});
