// The UI language: the other languages, and English beyond the sign-in screen's texts, are
// loaded when first needed. The language comes from `locale`, follows the signed-in user's saved
// language (user-language.ts) and changes through setLanguage there. This module stays free of
// the API client and the stores: the sign-in page loads it on first paint.
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, type Language } from '@/lib/contract';
import { getStoredLocale, storeLocale } from '@/lib/session/storage';
import { enSignIn } from './locales/en-sign-in';
import { translate, type TFunction } from './translator';
import type { Translation } from './types';

type Listener = () => void;

let language: Language = DEFAULT_LANGUAGE;
/** Each language whose texts are all loaded. */
const bundles = new Map<Language, Translation>();
/** What a missing text falls back to: English, the sign-in screen's until the whole of it is loaded. */
let english: object = enSignIn;
const listeners = new Set<Listener>();

function makeT(current: Language): TFunction {
  return (key, values) => translate(bundles.get(current), current, english, DEFAULT_LANGUAGE, key, values);
}

let currentT: TFunction = makeT(language);

/** The shown language and its texts; translates the sign-in screen in English from import on (first render, server). */
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

// Separate chunks, so a visitor downloads only the language they read, and the sign-in page only
// its own texts.
const loaders: Record<Language, () => Promise<Translation>> = {
  en: () => import('./locales/en').then((module) => module.en),
  es: () => import('./locales/es').then((module) => module.es),
  fr: () => import('./locales/fr').then((module) => module.fr),
};

/** 'fr-CA' → 'fr'; anything unsupported (or nothing) → undefined. */
function supportedBase(value: string | null | undefined): Language | undefined {
  const base = value?.trim().toLowerCase().split(/[-_]/)[0];
  return SUPPORTED_LANGUAGES.find((supported) => supported === base);
}

/** 'fr-CA' → 'fr'; anything unsupported (or nothing) → 'en'. */
export function normalizeLanguage(value: string | null | undefined): Language {
  return supportedBase(value) ?? DEFAULT_LANGUAGE;
}

/**
 * The first of the browser's languages (most wanted first) that Parley has: ['de-DE', 'fr-FR',
 * 'en'] → 'fr'. English when none is.
 */
export function browserLanguage(languages: readonly string[] | undefined = browserLanguages()): Language {
  for (const wanted of languages ?? []) {
    const found = supportedBase(wanted);
    if (found) return found;
  }
  return DEFAULT_LANGUAGE;
}

function browserLanguages(): readonly string[] | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/**
 * The language to show: the stored `locale` once there is one (a sign-in stores the account's, a
 * choice in the settings the chosen one), else the browser's on a first visit
 * (docs/DECISIONS.md, "The browser's language on a first visit").
 */
export function preferredLanguage(locale: string | null = getStoredLocale()): Language {
  return locale ? normalizeLanguage(locale) : browserLanguage();
}

/** Loads all of `wanted`'s texts; true if they were not loaded before. */
async function ensureLoaded(wanted: Language): Promise<boolean> {
  if (bundles.has(wanted)) return false;
  provideTexts(wanted, await loaders[wanted]());
  return true;
}

/** All of `wanted`'s texts, from its chunk (or bundled by the caller: the unit tests' setup). */
export function provideTexts(wanted: Language, texts: Translation): void {
  bundles.set(wanted, texts);
  if (wanted === 'en') english = texts;
}

/** Fetches a language's texts without showing them (a choice made later is then instant). */
export function preloadLanguage(wanted: Language): void {
  ensureLoaded(wanted).catch(() => {
    // Offline or gone: choosing it later loads it again.
  });
}

// Loading a language takes a moment; only the most recent request may switch to its language.
let latestRequest = 0;
let latestApplying: Promise<void> = Promise.resolve();

export interface LanguageOptions {
  /** Also store it in `locale`. */
  persist?: boolean;
  /**
   * The sign-in screen only: its texts are enough (in English they come with the page, so nothing
   * is loaded). Otherwise every text of the language is loaded first.
   */
  signInOnly?: boolean;
}

/**
 * Shows `wanted`, once its texts are in. Overtaken by a later request, it resolves with that one:
 * once the language shown then has its texts (what waits for it renders after it).
 */
export function applyLanguage(wanted: Language, options: LanguageOptions = {}): Promise<void> {
  const request = ++latestRequest;
  const applying = show(request, wanted, options);
  latestApplying = applying;
  return applying;
}

async function show(request: number, wanted: Language, { persist = false, signInOnly = false }: LanguageOptions): Promise<void> {
  const loaded = signInOnly && wanted === 'en' ? false : await ensureLoaded(wanted);
  if (request !== latestRequest) return latestApplying;
  if (language !== wanted || loaded) showTexts(wanted);
  if (persist) storeLocale(wanted);
  if (typeof document !== 'undefined') document.documentElement.lang = wanted;
}

/**
 * Switches to `locale` (the stored one unless given; without one, the browser's language; English
 * if unsupported). Resolves once that language's texts are loaded (`signInOnly`: those of the
 * sign-in screen): render after it to avoid a flash of English or of missing texts. Safe to call again.
 */
export async function initI18n(locale: string | null = getStoredLocale(), { signInOnly = false } = {}): Promise<typeof i18n> {
  await applyLanguage(preferredLanguage(locale), { signInOnly });
  return i18n;
}

/**
 * All texts of the shown language, before a sign-in starts (its errors, and the main area after
 * it, are beyond the sign-in screen's texts). Leaves the choice of language to applyLanguage.
 */
export async function loadAllTexts(): Promise<void> {
  const shown = language;
  if ((await ensureLoaded(shown)) && language === shown) showTexts(shown);
}

/** `wanted` and its texts as they are now, with a new t: what is on screen renders again. */
function showTexts(wanted: Language): void {
  language = wanted;
  currentT = makeT(wanted);
  for (const listener of [...listeners]) listener();
}

export function currentLanguage(): Language {
  return language;
}
