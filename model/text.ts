/** Text helpers shared by the featurizer and the training composer: folding and scripts. */

const SPECIAL_FOLDS: Record<string, string> = {
  "đ": "d",
  "ø": "o",
  "ß": "ss",
  "ł": "l",
  "æ": "ae",
  "œ": "oe",
  "ı": "i",
  "þ": "th",
  "ð": "d",
  "ħ": "h",
};
const MARKS = /\p{M}/gu;
const NON_ASCII = /[^ -~]/;
const SPECIAL_RE = /[đøßłæœıþðħ]/g;

/** Lower-cases, removes diacritics (NFD marks) and folds a few letters (đ→d, ß→ss, ł→l…). */
export function fold(word: string): string {
  const s = word.toLowerCase();
  // Fast path: plain ASCII needs no normalisation.
  if (!NON_ASCII.test(s)) return s;
  return foldWithMarksLatin(word).folded;
}

/** Folds the special letters of a lower-cased word whose marks are gone, and recomposes it. */
function foldSpecials(unmarked: string): string {
  return unmarked.replace(SPECIAL_RE, (c) => SPECIAL_FOLDS[c] ?? c).normalize("NFC");
}

const SPECIAL_TEST = /[đøßłæœıþðħ]/;

/**
 * `fold(word)`, and whether the word has a letter with a diacritic or a special folded letter,
 * sharing one Unicode decomposition.
 */
export function foldWithMarks(word: string): { folded: string; diacritics: boolean } {
  const lower = word.toLowerCase();
  const decomposed = lower.normalize("NFD");
  const stripped = decomposed.replace(MARKS, "");
  const diacritics = NON_ASCII.test(word) &&
    (stripped !== decomposed || SPECIAL_TEST.test(lower));
  const folded = NON_ASCII.test(lower) ? foldSpecials(stripped) : lower;
  return { folded, diacritics };
}

/**
 * Characters whose fold does not depend on their neighbours: Latin (below U+0250, and Latin
 * Extended Additional, Vietnamese), Cyrillic, kana, Han and Hangul syllables. Lower-casing,
 * decomposing, removing marks and folding the special letters act on each of them alone, and no
 * mark is left for the final composition to join (a Hangul syllable decomposes into jamo that only
 * recompose into itself), so a word of them folds as its characters' folds put together. Greek is
 * not among them: its capital sigma lower-cases by position.
 */
function isPerCharFold(c: number): boolean {
  return (c >= 0x20 && c < 0x250) || (c >= 0x400 && c < 0x530) || (c >= 0x1e00 && c < 0x1f00) ||
    (c >= 0x3040 && c < 0x3100) || (c >= 0x4e00 && c < 0xa000) || (c >= 0xac00 && c < 0xd7a4);
}
/** Per character met so far: its `foldWithMarks` form, and its diacritics flag (0: not yet). */
const CHAR_FOLD: (string | undefined)[] = new Array(0x10000);
const CHAR_MARKS = new Uint8Array(0x10000);

/**
 * `foldWithMarks(word)` from per-character answers when every character folds alone
 * (`isPerCharFold`); other words go through `foldWithMarks`.
 */
export function foldWithMarksLatin(word: string): { folded: string; diacritics: boolean } {
  for (let i = 0; i < word.length; i++) {
    if (!isPerCharFold(word.charCodeAt(i))) return foldWithMarks(word);
  }
  let folded = "";
  let marks = false;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    let f = CHAR_FOLD[c];
    if (f === undefined) {
      const one = foldWithMarks(String.fromCharCode(c));
      CHAR_FOLD[c] = f = one.folded;
      CHAR_MARKS[c] = one.diacritics ? 2 : 1;
    }
    folded += f;
    if (CHAR_MARKS[c] === 2) marks = true;
  }
  return { folded, diacritics: marks && NON_ASCII.test(word) };
}

export type Script =
  | "latin"
  | "cyrillic"
  | "greek"
  | "han"
  | "hangul"
  | "kana"
  | "arabic"
  | "hebrew"
  | "indic"
  | "thai"
  | "other";

/** The script of the first letter of a word (digits and punctuation are skipped). */
export function scriptOf(word: string): Script {
  for (let i = 0; i < word.length; i++) {
    const c = word.codePointAt(i)!;
    if (c > 0xffff) i++;
    if (c < 0x41) continue;
    if (c <= 0x24f) {
      if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c >= 0xc0) return "latin";
      continue;
    }
    if (c >= 0x1e00 && c <= 0x1eff) return "latin";
    if (c >= 0x370 && c <= 0x3ff) return "greek";
    if (c >= 0x1f00 && c <= 0x1fff) return "greek";
    if (c >= 0x400 && c <= 0x52f) return "cyrillic";
    if (c >= 0x590 && c <= 0x5ff) return "hebrew";
    if ((c >= 0x600 && c <= 0x6ff) || (c >= 0x750 && c <= 0x77f)) return "arabic";
    if (c >= 0x900 && c <= 0xdff) return "indic";
    if (c >= 0xe00 && c <= 0xe7f) return "thai";
    if ((c >= 0x1100 && c <= 0x11ff) || (c >= 0xac00 && c <= 0xd7af)) return "hangul";
    if (c >= 0x3040 && c <= 0x30ff) return "kana";
    if (
      (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff)
    ) {
      return "han";
    }
    if (c >= 0x20000 && c <= 0x2ffff) return "han";
    return "other";
  }
  return "other";
}

/** Scripts written without spaces between surname and given name (CJK). */
export function isCjkScript(s: Script): boolean {
  return s === "han" || s === "hangul" || s === "kana";
}
