// The signed-in user's saved language: followed when a user is published, changed from the
// settings menu. Apart from i18n.ts because it needs the API client and the session store, which
// the sign-in page does not load before a sign-in starts (its first load stays small).
import { updateSettings } from '@/lib/api/accounts';
import { errorKind } from '@/lib/api/user-message';
import { SUPPORTED_LANGUAGES, type Language } from '@/lib/contract';
import { useSessionStore } from '@/lib/stores/session-store';
import { applyLanguage, currentLanguage, normalizeLanguage, preloadLanguage } from '@/lib/i18n/i18n';

let stopFollowing: (() => void) | null = null;
// A choice made here and not yet saved on the server: it wins over the user the server publishes
// meanwhile (their saved language is the previous one until the save lands).
let unsaved: Language | null = null;
// The choice whose save is on its way: one at a time, so the server applies them in the order
// chosen (two requests at once could land in either order and leave the earlier choice saved).
let saving: Language | null = null;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
const RETRY_MS = 30_000;
// A failure that lands when the browser is online again (the network came back while the request
// was failing, so the `online` event has already fired): tried again soon, then less often.
const RETRY_SOON_MS = 2_000;
let soonRetries = 0;

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
    if (!saved || saved === previous.user?.language || unsaved !== null) return;
    void applyLanguage(normalizeLanguage(saved), { persist: true });
  });
  const stop = () => {
    unsubscribe();
    if (stopFollowing === stop) stopFollowing = null;
  };
  stopFollowing = stop;
  return stop;
}

function clearRetry(): void {
  if (retryTimer !== null) clearTimeout(retryTimer);
  retryTimer = null;
  if (typeof window !== 'undefined') window.removeEventListener('online', saveUnsaved);
}

/**
 * Saves the unsaved choice on the server; passing trouble tries again when the network is back. A
 * choice made while another is being saved is saved once that answer is in.
 */
function saveUnsaved(): void {
  clearRetry();
  const language = unsaved;
  if (language === null || saving !== null) return;
  saving = language;
  updateSettings({ language })
    .then((user) => {
      if (unsaved !== language) return; // another choice came meanwhile and saves itself
      unsaved = null;
      soonRetries = 0;
      useSessionStore.getState().publishUser(user);
    })
    .catch((error: unknown) => {
      if (unsaved !== language) return;
      const kind = errorKind(error);
      if (kind === 'network' || kind === 'server' || kind === 'rateLimited') {
        // The choice stays shown and stored in `locale`; the server hears of it later.
        const online = typeof navigator === 'undefined' || navigator.onLine;
        if (!online) window.addEventListener('online', saveUnsaved, { once: true });
        const soon = online && kind === 'network' && soonRetries < 4;
        if (soon) soonRetries += 1;
        retryTimer = setTimeout(saveUnsaved, soon ? RETRY_SOON_MS * 2 ** (soonRetries - 1) : RETRY_MS);
        return;
      }
      // Refused for good (a signed-out or deactivated account): nothing more to save.
      unsaved = null;
    })
    .finally(() => {
      saving = null;
      if (unsaved !== null && unsaved !== language) saveUnsaved();
    });
}

/**
 * The settings menu's language change: shown at once and stored in `locale` (so it also holds
 * offline and after a reload), then saved on the server when it can be: at once, or when the
 * network is back. Resolves once the language is shown.
 */
export async function setLanguage(language: Language): Promise<void> {
  unsaved = language;
  soonRetries = 0;
  await applyLanguage(language, { persist: true });
  saveUnsaved();
}

/**
 * Loads the other languages' texts in the background, so that choosing one later is instant and
 * works offline. Started once the main area is shown.
 */
export function preloadOtherLanguages(): void {
  for (const language of SUPPORTED_LANGUAGES) if (language !== currentLanguage()) preloadLanguage(language);
}
