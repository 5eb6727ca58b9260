// The UI language (issue #3): i18next with English bundled and the other languages loaded when
// first needed. The language comes from `locale` (SPEC §3), follows the signed-in user's saved
// language, and changes through setLanguage (stored in `locale` and on the server).
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { updateSettings } from '@/lib/api/accounts';
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, type Language, type User } from '@/lib/contract';
import { getStoredLocale, storeLocale } from '@/lib/session/storage';
import { useSessionStore } from '@/lib/stores/session-store';
import { en } from './locales/en';
import type { Translation } from './types';

export const NAMESPACE = 'translation';

export const i18n: I18n = i18next.createInstance();

// Started on import, in English (bundled, so synchronously): t() and useTranslation() work from
// the first render on, server or client; initI18n then switches to the user's language.
void i18n.use(initReactI18next).init({
  resources: { en: { [NAMESPACE]: en } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...SUPPORTED_LANGUAGES],
  defaultNS: NAMESPACE,
  ns: [NAMESPACE],
  // React escapes what it renders; escaping here too would show "&amp;" in names.
  interpolation: { escapeValue: false },
  initAsync: false,
  // Languages are loaded before they are switched to, so nothing ever needs to suspend.
  react: { useSuspense: false },
});

// Separate chunks, so a visitor downloads only the language they read.
const loaders: Record<Exclude<Language, 'en'>, () => Promise<Translation>> = {
  es: () => import('./locales/es').then((module) => module.es),
  fr: () => import('./locales/fr').then((module) => module.fr),
};

/** 'fr-CA' → 'fr'; anything unsupported (or nothing) → 'en'. */
export function normalizeLanguage(value: string | null | undefined): Language {
  const base = value?.trim().toLowerCase().split(/[-_]/)[0];
  return SUPPORTED_LANGUAGES.find((language) => language === base) ?? DEFAULT_LANGUAGE;
}

async function ensureLoaded(language: Language): Promise<void> {
  if (language === 'en' || i18n.hasResourceBundle(language, NAMESPACE)) return;
  i18n.addResourceBundle(language, NAMESPACE, await loaders[language]());
}

let stopFollowingUser: (() => void) | null = null;
// Loading a language takes a moment; only the most recent request may switch to its language.
let latestRequest = 0;

/** Shows `language`; `persist` also stores it in `locale`. */
export async function applyLanguage(language: Language, { persist = false } = {}): Promise<void> {
  const request = ++latestRequest;
  await ensureLoaded(language);
  if (request !== latestRequest) return;
  if (i18n.language !== language) await i18n.changeLanguage(language);
  if (persist) storeLocale(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/**
 * A published user's saved language wins over this browser's `locale` (it was chosen on another
 * device, or returned by sign-in), and is stored as `locale` as sign-in does.
 */
function followUserLanguage(): () => void {
  return useSessionStore.subscribe((state, previous) => {
    const language = state.user?.language;
    if (language && language !== previous.user?.language) void applyLanguage(normalizeLanguage(language), { persist: true });
  });
}

/**
 * Switches to `locale` (from storage unless given; English if unsupported) and from then on
 * follows the signed-in user's saved language. Resolves once that language's texts are loaded:
 * render after it to avoid a flash of English. Safe to call again.
 */
export async function initI18n(locale: string | null = getStoredLocale()): Promise<I18n> {
  stopFollowingUser ??= followUserLanguage();
  await applyLanguage(normalizeLanguage(locale));
  return i18n;
}

/**
 * The settings menu's language change: shown at once, stored in `locale`, saved on the server.
 * If the server refuses, the previous language comes back and the (SPEC §8) error is rethrown.
 */
export async function setLanguage(language: Language): Promise<User> {
  const previous = normalizeLanguage(i18n.language);
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

export function currentLanguage(): Language {
  return normalizeLanguage(i18n.language);
}

/** Tests only: stop following the user's language until the next initI18n. */
export function resetI18nForTests(): void {
  stopFollowingUser?.();
  stopFollowingUser = null;
}
