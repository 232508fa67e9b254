/**
 * Splits a raw full name into comma-separated groups of words. Bracketed asides `( … )`,
 * `[ … ]`, `{ … }` are dropped; words inside double quotes are marked as nickname words (quotes
 * removed); words without any letter (digits, punctuation, emoji) are dropped.
 */

export interface NameToken {
  text: string;
  /** The word stood inside double quotes. */
  nick: boolean;
}

export interface TokenizedName {
  groups: NameToken[][];
  /** Text of the first closed double-quoted part with words in it, else null. */
  nickname: string | null;
}

const QUOTES = new Set(['"', "“", "”", "„", "‟", "«", "»", "＂", "〝", "〞", "〟"]);
const OPENERS = new Set(["(", "[", "{", "（", "［", "【", "｛", "〔"]);
const CLOSERS = new Set([")", "]", "}", "）", "］", "】", "｝", "〕"]);
const COMMAS = new Set([",", "，", "、", ";", "；"]);
const SPACE = /\s/u;
const LETTER = /\p{L}/u;
const JUNK_CHAR = /[\p{Extended_Pictographic}\p{Cf}\uFE0F\u20E3]/u;
const JUNK_CHARS = /[\p{Extended_Pictographic}\p{Cf}\uFE0F\u20E3]/gu;
const EDGE_PUNCT = /^[^\p{L}\p{M}'’]+|[^\p{L}\p{M}.'’]+$/gu;
/** "J.Smith", "J.R.R.Tolkien": initials glued to a name. */
const GLUED_INITIALS = /^((?:\p{L}\.)+)(\p{L}[\p{L}\p{M}'’-]+)$/u;
const CJK_DOT = /[·・•]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_DOTS = /[·・•]+/u;

export function tokenizeName(input: string): TokenizedName {
  const groups: NameToken[][] = [[]];
  let nickname: string | null = null;
  let word = "";
  let depth = 0;
  let inQuote = false;
  let quoted: string[] = [];

  const push = (text: string, nick: boolean) => {
    if (inQuote && !nick) quoted.push(text);
    else groups[groups.length - 1].push({ text, nick });
  };
  const flush = () => {
    if (word.length === 0) return;
    for (const text of cleanWord(word)) push(text, false);
    word = "";
  };

  for (const ch of input.normalize("NFC")) {
    if (depth > 0) {
      if (OPENERS.has(ch)) depth++;
      else if (CLOSERS.has(ch)) depth--;
      continue;
    }
    if (OPENERS.has(ch)) {
      flush();
      depth = 1;
    } else if (CLOSERS.has(ch)) {
      flush();
    } else if (QUOTES.has(ch)) {
      flush();
      if (inQuote) {
        inQuote = false;
        if (quoted.length > 0 && nickname === null) nickname = quoted.join(" ");
        for (const text of quoted) push(text, true);
        quoted = [];
      } else {
        inQuote = true;
      }
    } else if (COMMAS.has(ch)) {
      flush();
      if (!inQuote) groups.push([]);
    } else if (SPACE.test(ch)) {
      flush();
    } else {
      word += ch;
    }
  }
  flush();
  if (inQuote) {
    // An unclosed quote is not a nickname: its words are ordinary words.
    inQuote = false;
    for (const text of quoted) push(text, false);
  }
  return { groups: groups.filter((g) => g.length > 0), nickname };
}

/** Trims junk around one raw word; may split glued initials or CJK middle dots. */
function cleanWord(raw: string): string[] {
  let w = raw;
  if (JUNK_CHAR.test(w)) w = w.replace(JUNK_CHARS, "");
  w = w.replace(EDGE_PUNCT, "");
  if (!LETTER.test(w)) return [];
  if (CJK_DOT.test(w) && CJK.test(w)) return w.split(CJK_DOTS).filter((p) => LETTER.test(p));
  const glued = GLUED_INITIALS.exec(w);
  if (glued) return [glued[1], glued[2]];
  return [w];
}
