// Text that other people see as a label (display names, file names) must look like what it is.
// Bidi overrides turn "\u202Egpj.exe" into what reads as "exe.jpg"; zero-width characters make
// "Alice" and "Al\u200Bice" two different names that look the same. The rule, in one place
// (docs/DECISIONS.md, "Names and file names"):
// - NFC, so that a composed and a decomposed "é" are one name;
// - invisible format characters are removed: bidi embeddings, overrides, isolates and marks,
//   zero-width space, word joiner, BOM, soft hyphen, invisible operators, Hangul fillers and
//   every other format character (Unicode category Cf);
// - except where they are part of the text: ZWJ and ZWNJ between letters of scripts that join
//   (Arabic and Persian, the Indic scripts, Sinhala, Myanmar, Khmer, Mongolian, Syriac…), ZWJ
//   inside an emoji sequence (👩‍💻), and the tag characters of a subdivision flag (England's 🏴…);
// - variation selectors are removed unless they select a variant of the character before them: VS15
//   and VS16 after an emoji (✌️), the others after a CJK ideograph (ideographic variants), the
//   Mongolian ones after a Mongolian letter; "Alice\uFE0F" is "Alice";
// - for display names also: control characters and line breaks become spaces, runs of spaces
//   one space, combining marks with no letter to sit on (at the start, after a space) go, and the
//   ends are trimmed;
// - for file names also: characters drawn as a slash (∕ ／ ⁄ ⧸ ⧵ ⧹ ＼ ∖) become "_", so a name cannot
//   look like a path ("invoices∕paid.pdf.exe").
// So no two stored names can differ only by invisible characters: those are gone, and the joiners
// kept change how their neighbours are drawn.

const ZWNJ = '\u200C';
const ZWJ = '\u200D';
const BLACK_FLAG = '\u{1F3F4}';
const CANCEL_TAG = '\u{E007F}';

// Scripts whose letters ZWJ and ZWNJ visibly join or separate (Unicode Script_Extensions).
const JOINING_SCRIPT_LETTER =
  /^(?=[\p{L}\p{M}])[\p{scx=Arab}\p{scx=Syrc}\p{scx=Nkoo}\p{scx=Mong}\p{scx=Deva}\p{scx=Beng}\p{scx=Guru}\p{scx=Gujr}\p{scx=Orya}\p{scx=Taml}\p{scx=Telu}\p{scx=Knda}\p{scx=Mlym}\p{scx=Sinh}\p{scx=Mymr}\p{scx=Khmr}\p{scx=Tibt}\p{scx=Thaa}\p{scx=Mand}\p{scx=Adlm}\p{scx=Rohg}]$/u;
// What may come before a ZWJ in an emoji sequence: a pictograph, a skin tone, or VS16.
const EMOJI_BEFORE_ZWJ = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const TAG = /^[\u{E0020}-\u{E007E}]$/u;
// Format characters, and letters that draw nothing (Hangul fillers, Khmer inherent vowels,
// the combining grapheme joiner), often used to fake blank or look-alike names.
const INVISIBLE = /^[\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u3164\uFFA0]$/u;

const VARIATION_SELECTOR = /^[\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u180B-\u180D\u180F]$/u;
const EMOJI_PRESENTATION = /^[\uFE0E\uFE0F]$/u;
const MONGOLIAN_SELECTOR = /^[\u180B-\u180D\u180F]$/u;

/** Whether `selector` selects a variant of `before` (the character kept just before it). */
function keepSelector(selector: string, before: string | undefined): boolean {
  if (!before) return false;
  if (EMOJI_PRESENTATION.test(selector)) return /^\p{Emoji}$/u.test(before);
  if (MONGOLIAN_SELECTOR.test(selector)) return /^\p{scx=Mong}$/u.test(before) && /^\p{L}$/u.test(before);
  return /^\p{Ideographic}$/u.test(before);
}

function keepJoiner(joiner: string, before: string | undefined, after: string | undefined): boolean {
  if (before && JOINING_SCRIPT_LETTER.test(before)) {
    // Between two letters, or ending a word (a Malayalam chillu, a Devanagari half form).
    return after === undefined || JOINING_SCRIPT_LETTER.test(after) || /^\s$/u.test(after);
  }
  return joiner === ZWJ && !!before && !!after && EMOJI_BEFORE_ZWJ.test(before) && PICTOGRAPH.test(after);
}

/** `text` in NFC without its invisible characters (see above); spaces are left as they are. */
export function stripInvisible(text: string): string {
  const chars = [...text.normalize('NFC')];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (char === BLACK_FLAG) {
      // A subdivision flag: the black flag, tag letters, the cancel tag, kept whole.
      let end = i + 1;
      while (end < chars.length && TAG.test(chars[end]!)) end++;
      if (end > i + 1 && chars[end] === CANCEL_TAG) {
        out.push(...chars.slice(i, end + 1));
        i = end;
        continue;
      }
    }
    if (char === ZWJ || char === ZWNJ) {
      if (keepJoiner(char, out[out.length - 1], chars[i + 1])) out.push(char);
    } else if (VARIATION_SELECTOR.test(char)) {
      if (keepSelector(char, out[out.length - 1])) out.push(char);
    } else if (!INVISIBLE.test(char)) {
      out.push(char);
    }
  }
  return out.join('');
}

/**
 * A display name as stored and shown: invisible characters removed, control characters and line
 * breaks turned into spaces, combining marks with no letter to sit on removed, whitespace runs
 * (any kind, the braille blank too) made one space, the ends trimmed. Empty when nothing visible
 * is left (a lone U+0301 included).
 */
export function cleanDisplayName(text: string): string {
  return stripInvisible(text.replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' '))
    .replace(/(^|[\s\u2800])\p{M}+/gu, '$1')
    .replace(/[\s\u2800]+/gu, ' ')
    .trim();
}

const SLASH_LOOKALIKES = /[\u2215\uFF0F\u2044\u29F8\u29F5\u29F9\uFF3C\u2216]/gu;

/** A file name's text as stored and shown: invisible characters removed, slash look-alikes made "_". */
export function cleanFileName(text: string): string {
  return stripInvisible(text).replace(SLASH_LOOKALIKES, '_');
}
