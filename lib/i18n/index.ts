// What the UI needs for its language: the instance for the provider, start and switch, a typed t.
import { useTranslation } from 'react-i18next';

export { i18n, initI18n, setLanguage, applyLanguage, currentLanguage, normalizeLanguage } from './i18n';
export { formatFileSize } from './format';
export type { Messages, Translation } from './types';

/** The t function of the current language, typed against the English keys. */
export function useT() {
  return useTranslation().t;
}
