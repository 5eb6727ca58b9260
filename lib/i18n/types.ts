// The shape every translation has: English's keys, any text, plus the plural categories English
// lacks (CLDR gives Spanish and French a "many" form, used for 1,000,000 and up).
import type { en } from './locales/en';

type ExtraPluralForms = { [key: `${string}_${'zero' | 'two' | 'few' | 'many'}`]: string };

/** A translation of English texts `T` (all of English, or one of its parts): the same keys, any text. */
export type TranslationOf<T> = { [K in keyof T]: T[K] extends string ? string : TranslationOf<T[K]> } & ExtraPluralForms;

export type Messages = typeof en;
export type Translation = TranslationOf<Messages>;
