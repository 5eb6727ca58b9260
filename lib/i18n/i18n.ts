// The UI language: English bundled, the other languages loaded when first needed. The
// language comes from `locale`, follows the signed-in user's saved language
// (user-language.ts) and changes through setLanguage there. This module stays free of the API
// client and the stores: the sign-in page loads it on first paint.
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, type Language } from '@/lib/contract';
import { getStoredLocale, storeLocale } from '@/lib/session/storage';
import { en } from './locales/en';
import { translate, type TFunction } from './translator';
import type { Translation } from './types';

type Listener = () => void;

let language: Language = DEFAULT_LANGUAGE;
const bundles = new Map<Language, Translation>([['en', en]]);
const listeners = new Set<Listener>();

function makeT(current: Language): TFunction {
  return (key, values) => translate(bundles.get(current), current, en, DEFAULT_LANGUAGE, key, values);
}

let currentT: TFunction = makeT(language);

/** The shown language and its texts; translates in English from import on (first render, server). */
export const i18n = {
  isInitialized: true,
  get language(): Language {
    return language;
  },
  t: ((key, values) => currentT(key, values)) as TFunction,
};

/** Notified after every change of language (the React hooks re-render on it). */
export function subscribeLanguage(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** A t for the current language: the same function until the language changes. */
export function currentTranslator(): TFunction {
  return currentT;
}

// Separate chunks, so a visitor downloads only the language they read.
const loaders: Record<Exclude<Language, 'en'>, () => Promise<Translation>> = {
  es: () => import('./locales/es').then((module) => module.es),
  fr: () => import('./locales/fr').then((module) => module.fr),
};

/** 'fr-CA' → 'fr'; anything unsupported (or nothing) → 'en'. */
export function normalizeLanguage(value: string | null | undefined): Language {
  const base = value?.trim().toLowerCase().split(/[-_]/)[0];
  return SUPPORTED_LANGUAGES.find((supported) => supported === base) ?? DEFAULT_LANGUAGE;
}

async function ensureLoaded(wanted: Language): Promise<void> {
  if (wanted === 'en' || bundles.has(wanted)) return;
  bundles.set(wanted, await loaders[wanted]());
}

/** Fetches a language's texts without showing them (a choice made later is then instant). */
export function preloadLanguage(wanted: Language): void {
  ensureLoaded(wanted).catch(() => {
    // Offline or gone: choosing it later loads it again.
  });
}

// Loading a language takes a moment; only the most recent request may switch to its language.
let latestRequest = 0;

/** Shows `wanted`; `persist` also stores it in `locale`. */
export async function applyLanguage(wanted: Language, { persist = false } = {}): Promise<void> {
  const request = ++latestRequest;
  await ensureLoaded(wanted);
  if (request !== latestRequest) return;
  if (language !== wanted) {
    language = wanted;
    currentT = makeT(wanted);
    for (const listener of [...listeners]) listener();
  }
  if (persist) storeLocale(wanted);
  if (typeof document !== 'undefined') document.documentElement.lang = wanted;
}

/**
 * Switches to `locale` (from storage unless given; English if unsupported). Resolves once that
 * language's texts are loaded: render after it to avoid a flash of English. Safe to call again.
 */
export async function initI18n(locale: string | null = getStoredLocale()): Promise<typeof i18n> {
  await applyLanguage(normalizeLanguage(locale));
  return i18n;
}

export function currentLanguage(): Language {
  return language;
}
