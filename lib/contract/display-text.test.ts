import { describe, expect, it } from 'vitest';
import { cleanDisplayName, cleanFileName, stripInvisible } from './display-text';

const codePoints = (text: string) => [...text].map((char) => char.codePointAt(0)!.toString(16));

describe('stripInvisible', () => {
  it.each([
    ['a right-to-left override (gpj.exe reads as exe.jpg)', '\u202Egpj.exe', 'gpj.exe'],
    ['embeddings, isolates and bidi marks', '\u202Aa\u202Bb\u202Cc\u2066d\u2067e\u2068f\u2069g\u200Eh\u200Fi\u061Cj', 'abcdefghij'],
    ['zero-width space, word joiner and BOM', 'Al\u200Bi\u2060c\uFEFFe', 'Alice'],
    ['a soft hyphen and invisible operators', 'Ali\u00ADce\u2062', 'Alice'],
    ['Hangul fillers (blank-looking names)', '\u3164\u115F\u1160\uFFA0Bob', 'Bob'],
    ['the combining grapheme joiner', 'Bo\u034Fb', 'Bob'],
    ['ZWJ and ZWNJ between Latin letters', 'ad\u200Dmi\u200Cn', 'admin'],
    ['a ZWJ after the last letter of a Latin name', 'admin\u200D', 'admin'],
    ['doubled joiners in Persian', 'می\u200C\u200Cخواهم', 'می\u200Cخواهم'],
    ['stray tag characters', 'Bob\u{E0041}\u{E007F}', 'Bob'],
    ['variation selectors after a letter', 'Alice\uFE0F Al\uFE00ice Ali\u{E0100}ce Alic\u180Be', 'Alice Alice Alice Alice'],
    ['a second variation selector after an emoji', '✌\uFE0F\uFE0F', '✌\uFE0F'],
  ])('removes %s', (_label, input, expected) => {
    expect(codePoints(stripInvisible(input))).toEqual(codePoints(expected));
  });

  it.each([
    ['ZWNJ inside a Persian word', 'می\u200Cخواهم'],
    ['ZWJ in a Devanagari half form', 'क्\u200Dष'],
    ['ZWJ ending a Malayalam word (an old-style chillu)', 'അവന്\u200D വന്നു'],
    ['ZWJ in emoji sequences', '👩\u200D💻 ❤️\u200D🔥 👩🏽\u200D🚀 🏳️\u200D🌈'],
    ['the tag characters of a subdivision flag', '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} Ann'],
    ['variation selectors and skin tones', '✌️ 👍🏾'],
    ['a keycap and a text-style emoji', '1\uFE0F\u20E3 ☺\uFE0E'],
    ['an ideographic variation sequence', '葛\u{E0100}'],
    ['a Mongolian free variation selector', 'ᠠ\u180B'],
    ['accents, other scripts and spaces', 'Zoë  Ångström 张伟 محمد'],
  ])('keeps %s', (_label, input) => {
    expect(codePoints(stripInvisible(input))).toEqual(codePoints(input));
  });

  it('composes decomposed characters (NFC), so both spellings are one name', () => {
    expect(stripInvisible('Zoe\u0308')).toBe('Zoë');
    expect(stripInvisible('Zoe\u0308')).toBe(stripInvisible('Zo\u00EB'));
  });
});

describe('cleanDisplayName', () => {
  it('turns controls and line breaks into spaces, collapses spaces and trims', () => {
    expect(cleanDisplayName('  Bob\n\tDupont\u2028Jr\u00A0\u3000X  ')).toBe('Bob Dupont Jr X');
  });

  it('leaves nothing of a name made of invisible characters and blanks', () => {
    expect(cleanDisplayName('\u200B\u3164 \u2800\u202E')).toBe('');
  });

  it('leaves nothing of a lone combining mark, and drops marks with no letter to sit on', () => {
    expect(cleanDisplayName('\u0301')).toBe('');
    expect(cleanDisplayName('\u0301\u0308 \u20DD')).toBe('');
    expect(cleanDisplayName('\u0301Bob \u0308Dupont')).toBe('Bob Dupont');
    expect(cleanDisplayName('Zoe\u0308')).toBe('Zoë');
  });

  it('makes names that differ only by invisible characters or spacing one and the same', () => {
    const spellings = ['Alice Martin', 'Al\u200Bice Martin', '\u202DAlice  Martin\u2060', 'Alice\u00A0Martin\uFEFF', 'Alice\uFE0F Martin'];
    expect(new Set(spellings.map(cleanDisplayName))).toEqual(new Set(['Alice Martin']));
  });
});

describe('cleanFileName', () => {
  it('turns characters drawn as a slash into "_", so a name cannot look like a path', () => {
    expect(cleanFileName('invoices\u2215paid\uFF0Fmay\u2044x\u29F8y\uFF3Cz\u2216.pdf')).toBe('invoices_paid_may_x_y_z_.pdf');
    expect(cleanFileName('\u202Egpj.exe')).toBe('gpj.exe');
  });
});

