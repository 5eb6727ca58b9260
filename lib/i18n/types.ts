// The shape every translation has: English's keys, any text, plus the plural categories English
// lacks (CLDR gives Spanish and French a "many" form, used for 1,000,000 and up).
import type { en } from './locales/en';

type ExtraPluralForms = { [key: `${string}_${'zero' | 'two' | 'few' | 'many'}`]: string };

type TranslationOf<T> = { [K in keyof T]: T[K] extends string ? string : TranslationOf<T[K]> } & ExtraPluralForms;

export type Messages = typeof en;
export type Translation = TranslationOf<Messages>;
