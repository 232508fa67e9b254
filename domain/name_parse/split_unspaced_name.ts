/**
 * Splits ONE unspaced token written in Chinese characters or Korean Hangul into surname and given
 * name by the surname inventories. Returns `unsupported` for a token in a script whose names are
 * written without spaces and that this parser does not split (Japanese kana or an unsplittable
 * kanji string, Thai, Lao, Khmer, Myanmar, Tibetan), and `null` for any other single word.
 */
import {
  CHINESE_COMPOUND_SURNAMES,
  CHINESE_SURNAMES,
  KOREAN_COMPOUND_SURNAMES,
  KOREAN_SAFE_COMPOUNDS,
  KOREAN_SURNAMES,
} from "./cjk_surnames.ts";

export type UnspacedSplit = { surname: string; given: string } | "unsupported" | null;

const ALL_HAN = /^\p{Script=Han}+$/u;
const ALL_HANGUL = /^\p{Script=Hangul}+$/u;
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;

export function splitUnspacedName(token: string): UnspacedSplit {
  if (ALL_HAN.test(token)) return splitChinese(Array.from(token)) ?? "unsupported";
  if (ALL_HANGUL.test(token)) return splitKorean(Array.from(token)) ?? "unsupported";
  return UNSPACED_SCRIPT.test(token) ? "unsupported" : null;
}

/**
 * 2 characters: 1 + 1; 3: a compound surname + 1, else a listed surname + 2; 4: 2 + 2 (a compound
 * surname, a Taiwanese double surname, or the usual Japanese kanji name). A 3-character string
 * without a listed surname, or 5 or more characters, is not split.
 */
function splitChinese(chars: string[]): UnspacedSplit {
  const n = chars.length;
  if (n < 2 || n > 4) return null;
  if (n >= 3 && CHINESE_COMPOUND_SURNAMES.has(chars[0] + chars[1])) return at(chars, 2);
  if (n === 4) return at(chars, 2);
  if (CHINESE_SURNAMES.has(chars[0])) return at(chars, 1);
  return null;
}

/**
 * 2 or 3 syllables: a single-syllable surname (or an unambiguous compound such as 남궁 + 1);
 * 4 syllables: a compound surname + 2, else 1 + 3.
 */
function splitKorean(chars: string[]): UnspacedSplit {
  const n = chars.length;
  if (n < 2 || n > 5) return null;
  const two = chars[0] + chars[1];
  if (n >= 4 && KOREAN_COMPOUND_SURNAMES.has(two)) return at(chars, 2);
  if (n === 3 && KOREAN_SAFE_COMPOUNDS.has(two)) return at(chars, 2);
  if (n <= 4 && KOREAN_SURNAMES.has(chars[0])) return at(chars, 1);
  if (n >= 3 && KOREAN_COMPOUND_SURNAMES.has(two)) return at(chars, 2);
  return null;
}

function at(chars: string[], split: number): UnspacedSplit {
  return { surname: chars.slice(0, split).join(""), given: chars.slice(split).join("") };
}
