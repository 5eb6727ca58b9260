// Every language is complete: each English key (each plural form the language's CLDR rules need)
// is there, with text, and with the same placeholders; nothing else is.
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES } from '@/lib/contract';
import { en } from './locales/en';
import { es } from './locales/es';
import { fr } from './locales/fr';

const translations: Record<string, object> = { en, es, fr };
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function flatten(tree: object, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [inner, text] of flatten(value as object, path)) entries.set(inner, text);
  }
  return entries;
}

/** The keys a language must have: plural groups expanded to its own plural categories. */
function expectedKeys(language: string): Set<string> {
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of flatten(en).keys()) {
    if (!PLURAL_SUFFIX.test(key)) keys.add(key);
    else for (const category of categories) keys.add(key.replace(PLURAL_SUFFIX, `_${category}`));
  }
  return keys;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/{{\s*([\w.]+)[^}]*}}/g)].map((match) => match[1] ?? '').sort();
}

const baseKey = (key: string) => key.replace(PLURAL_SUFFIX, '_one');

describe.each(SUPPORTED_LANGUAGES)('translation %s', (language) => {
  const texts = flatten(translations[language] ?? {});
  const englishPlaceholders = new Map([...flatten(en)].map(([key, text]) => [baseKey(key), placeholders(text)]));

  it('exists for every supported language', () => {
    expect(translations[language]).toBeDefined();
  });

  it('has every key of English, in each plural form the language needs, and no other key', () => {
    const expected = expectedKeys(language);
    const missing = [...expected].filter((key) => !texts.has(key));
    const unexpected = [...texts.keys()].filter((key) => !expected.has(key));
    expect(missing).toEqual([]);
    expect(unexpected).toEqual([]);
  });

  it('has text for every key and the same placeholders as English', () => {
    for (const [key, text] of texts) {
      expect(text.trim(), key).not.toBe('');
      expect(placeholders(text), key).toEqual(englishPlaceholders.get(baseKey(key)) ?? []);
    }
  });
});
