// The signed-in user's saved language: followed when a user is published, changed from the
// settings menu. Apart from i18n.ts because it needs the API client and the session store, which
// the sign-in page does not load before a sign-in starts (its first load stays small).
import { updateSettings } from '@/lib/api/accounts';
import type { Language, User } from '@/lib/contract';
import { useSessionStore } from '@/lib/stores/session-store';
import { applyLanguage, currentLanguage, normalizeLanguage } from './i18n';

let stopFollowing: (() => void) | null = null;

/**
 * From now on, a published user's saved language wins over this browser's `locale` (it was chosen
 * on another device, or returned by sign-in), and is stored as `locale` as sign-in does. Called
 * before a user is published (sign-in, the main area's guard); calling it again changes nothing.
 * Returns the function that stops following.
 */
export function followUserLanguage(): () => void {
  if (stopFollowing) return stopFollowing;
  const unsubscribe = useSessionStore.subscribe((state, previous) => {
    const saved = state.user?.language;
    if (saved && saved !== previous.user?.language) void applyLanguage(normalizeLanguage(saved), { persist: true });
  });
  const stop = () => {
    unsubscribe();
    if (stopFollowing === stop) stopFollowing = null;
  };
  stopFollowing = stop;
  return stop;
}

/**
 * The settings menu's language change: shown at once, stored in `locale`, saved on the server.
 * If the server refuses, the previous language comes back and the error is rethrown.
 */
export async function setLanguage(language: Language): Promise<User> {
  const previous = currentLanguage();
  await applyLanguage(language, { persist: true });
  try {
    const user = await updateSettings({ language });
    useSessionStore.getState().publishUser(user);
    return user;
  } catch (error) {
    await applyLanguage(previous, { persist: true });
    throw error;
  }
}
