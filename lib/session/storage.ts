// Token and locale in localStorage (docs/CLIENT-RULES.md). Every access is guarded: during SSR there is
// no window, and some browsers throw on localStorage in private modes; both read as "no token".
import { LOCALE_STORAGE_KEY, TOKEN_PREFIX, TOKEN_STORAGE_KEY } from '@/lib/contract';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function read(key: string): string | null {
  try {
    // An empty value is treated like a missing one: it cannot authenticate anything.
    return storage()?.getItem(key) || null;
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // Quota or privacy mode: the session then lasts only as long as the page.
  }
}

/** The stored Authorization value as is, already carrying its Bearer prefix. */
export function getStoredToken(): string | null {
  return read(TOKEN_STORAGE_KEY);
}

/** Stores the server's raw token as "Bearer <token>". */
export function storeToken(rawToken: string): void {
  write(TOKEN_STORAGE_KEY, `${TOKEN_PREFIX} ${rawToken}`);
}

/** Removes the token only; the locale outlives sign-out. */
export function clearToken(): void {
  try {
    storage()?.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Nothing stored that we could reach, so nothing to remove.
  }
}

export function getStoredLocale(): string | null {
  return read(LOCALE_STORAGE_KEY);
}

export function storeLocale(language: string): void {
  write(LOCALE_STORAGE_KEY, language);
}
