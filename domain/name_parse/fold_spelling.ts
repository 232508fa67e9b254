/**
 * `spelling: folded`: lower case, diacritics removed (NFD, combining marks dropped), and letters
 * that do not decompose mapped to plain Latin (ß→ss, ø→o, æ→ae, œ→oe, ł→l, đ/ð→d, þ→th, ı→i, …).
 * Letters of other scripts are lower-cased; only combining diacritics are removed from them (the
 * kana voicing marks, which change the letter, are kept). A mojibake word ("AndrÃ©") is folded as
 * the word it stands for ("andre").
 */
import { repairMojibakeWords } from "./mojibake.ts";
const SPECIAL: Record<string, string> = {
  "ß": "ss",
  "ẞ": "ss",
  "ø": "o",
  "æ": "ae",
  "œ": "oe",
  "ł": "l",
  "đ": "d",
  "ð": "d",
  "þ": "th",
  "ı": "i",
  "ħ": "h",
  "ŧ": "t",
  "ŋ": "n",
  "ĸ": "k",
  "ŀ": "l",
  "ŉ": "n",
  "ſ": "s",
  "ƒ": "f",
  "ɨ": "i",
  "ʉ": "u",
  "ƀ": "b",
  "ɗ": "d",
  "ɓ": "b",
  "ƙ": "k",
  "ƴ": "y",
  "ĳ": "ij",
  "ǆ": "dz",
  "ǉ": "lj",
  "ǌ": "nj",
  "ȣ": "ou",
  "ʼ": "'",
  "’": "'",
};
/** Combining diacritical marks (not e.g. U+3099/U+309A, the kana voicing marks). */
const MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+/gu;
const SPECIAL_CHARS = new RegExp(`[${Object.keys(SPECIAL).join("")}]`, "gu");
const ASCII = /^[\x20-\x7e]*$/;

export function foldSpelling(s: string): string {
  if (ASCII.test(s)) return s.toLowerCase();
  // a mojibake word folds as the word it stands for: "Nguyá»…n" → "nguyen"
  const lower = repairMojibakeWords(s).toLowerCase();
  return lower.normalize("NFD").replace(MARKS, "").replace(SPECIAL_CHARS, (c) => SPECIAL[c])
    .normalize("NFC");
}
