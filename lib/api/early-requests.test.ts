// The script the document inlines (the very string), run as the browser runs it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_PATHS, EARLY_REQUESTS_SCRIPT } from '@/lib/session/first-paint-script';

function runAt(path: string, token: string | null) {
  window.history.replaceState(null, '', path);
  if (token === null) localStorage.removeItem('token');
  else localStorage.setItem('token', token);
  const fetch = vi.fn(() => Promise.resolve(new Response('{}')));
  vi.stubGlobal('fetch', fetch);
  new Function(EARLY_REQUESTS_SCRIPT)();
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.__parleyEarly;
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('early requests script', () => {
  it.each(['/main', '/main/', '/main/42'])('on %s with a token: the user and the first page of conversations, with the stored value as Authorization', (path) => {
    const fetch = runAt(path, 'Bearer abc');
    expect(fetch.mock.calls).toEqual(EARLY_PATHS.map((early) => [`${window.location.origin}/api/${early}`, { headers: { Authorization: 'Bearer abc' } }]));
    expect(window.__parleyEarly?.authorization).toBe('Bearer abc');
    expect(Object.keys(window.__parleyEarly?.responses ?? {})).toEqual([...EARLY_PATHS]);
  });

  it.each([
    ['/account', 'Bearer abc'],
    ['/mainly', 'Bearer abc'],
    ['/', 'Bearer abc'],
    ['/main', ''],
    ['/main', null],
  ])('on %s with token %j: nothing', (path, token) => {
    expect(runAt(path, token)).not.toHaveBeenCalled();
    expect(window.__parleyEarly).toBeUndefined();
  });

  it('warms the page language’s date and number formatting in a task of its own, after starting the requests', () => {
    vi.useFakeTimers();
    const dates = vi.spyOn(Intl, 'DateTimeFormat');
    const numbers = vi.spyOn(Intl, 'NumberFormat');
    try {
      document.documentElement.lang = 'fr';
      const fetch = runAt('/main', 'Bearer abc');
      expect(fetch).toHaveBeenCalledTimes(2);
      expect(dates).not.toHaveBeenCalled();
      vi.runAllTimers();
      expect(dates).toHaveBeenCalledWith('fr');
      expect(numbers).toHaveBeenCalledWith('fr');
    } finally {
      document.documentElement.lang = '';
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });

  it('without a token, or outside the main area: no formatting warmed either', () => {
    vi.useFakeTimers();
    const dates = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      runAt('/account', 'Bearer abc');
      runAt('/main', null);
      vi.runAllTimers();
      expect(dates).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });

  it('a request that fails is left for the client to see, never an unhandled rejection', async () => {
    window.history.replaceState(null, '', '/main');
    localStorage.setItem('token', 'Bearer abc');
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    new Function(EARLY_REQUESTS_SCRIPT)();
    await expect(window.__parleyEarly?.responses.c).rejects.toThrow('Failed to fetch');
  });
});
