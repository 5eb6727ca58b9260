// Translation lookup as pure functions: nested keys ('thread.title'), CLDR plurals from `count`
// (key_one, key_many, key_other…), and {{name}} / {{count, number}} placeholders. The app uses
// nothing more, so this replaces a general i18n library (~19 KiB gzip on every page's
// first load, the sign-in page included).
import type { Messages, Translation } from './types';

type PluralSuffix = `_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}`;
type WithoutPlural<K extends string> = K extends `${infer Base}${PluralSuffix}` ? Base : K;
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` | `${Prefix}${WithoutPlural<K>}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every key of the English resources; a plural group also by its base name ('header.unread'). */
export type TranslationKey = Leaves<Messages>;
export type TranslationValues = Record<string, unknown>;
export type TFunction = (key: TranslationKey, values?: TranslationValues) => string;

const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function cached<T>(cache: Map<string, T>, language: string, make: () => T): T {
  let value = cache.get(language);
  if (!value) {
    value = make();
    cache.set(language, value);
  }
  return value;
}

function lookup(resources: object | undefined, path: readonly string[], leaf: string): string | undefined {
  let node: unknown = resources;
  for (const part of path) node = (node as Record<string, unknown> | undefined)?.[part];
  const text = (node as Record<string, unknown> | undefined)?.[leaf];
  return typeof text === 'string' ? text : undefined;
}

function find(resources: object | undefined, language: string, key: string, count: unknown): string | undefined {
  const path = key.split('.');
  const leaf = path.pop() ?? key;
  if (typeof count === 'number') {
    const category = cached(pluralRules, language, () => new Intl.PluralRules(language)).select(count);
    const plural = lookup(resources, path, `${leaf}_${category}`) ?? lookup(resources, path, `${leaf}_other`);
    if (plural !== undefined) return plural;
  }
  return lookup(resources, path, leaf);
}

function interpolate(text: string, language: string, values: TranslationValues): string {
  return text.replace(/{{\s*([\w.]+)\s*(?:,\s*(\w+)\s*)?}}/g, (_match, name: string, format: string | undefined) => {
    const value = values[name];
    if (value === undefined || value === null) return '';
    if (format === 'number' && typeof value === 'number') {
      return cached(numberFormats, language, () => new Intl.NumberFormat(language)).format(value);
    }
    return String(value);
  });
}

/**
 * The text for `key` in `language` (its resources), else in English; the key itself when neither
 * has it. `values.count` picks the plural form by the language's CLDR rules.
 */
export function translate(
  resources: Translation | undefined,
  language: string,
  fallback: object,
  fallbackLanguage: string,
  key: string,
  values: TranslationValues = {},
): string {
  const own = find(resources, language, key, values.count);
  if (own !== undefined) return interpolate(own, language, values);
  const english = find(fallback, fallbackLanguage, key, values.count);
  return english === undefined ? key : interpolate(english, fallbackLanguage, values);
}
