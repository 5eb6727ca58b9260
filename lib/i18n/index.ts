// What the UI needs for its language: start and switch, a typed t, the current language.
// Kept light (no API client, no stores): the sign-in page imports it on first paint.
import { useSyncExternalStore } from 'react';
import { currentLanguage, currentTranslator, subscribeLanguage } from './i18n';
import type { TFunction } from './translator';

export { i18n, initI18n, currentLanguage, loadAllTexts, normalizeLanguage, preferredLanguage, preloadLanguage } from './i18n';
export { formatFileSize } from './format';
export type { TFunction, TranslationKey } from './translator';

/** The t function of the current language, typed against the English keys; re-renders on change. */
export function useT(): TFunction {
  return useSyncExternalStore(subscribeLanguage, currentTranslator, currentTranslator);
}

/** The language the UI is shown in (re-renders on change), for Intl date and number formats. */
export function useLanguage(): string {
  return useSyncExternalStore(subscribeLanguage, currentLanguage, currentLanguage);
}
