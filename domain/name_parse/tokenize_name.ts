/**
 * Splits a raw full name into comma-separated groups of words. Bracketed asides `( … )`,
 * `[ … ]`, `{ … }`, `< … >` are dropped (an aside before every word is kept apart: "(Rick) Smith"
 * may need it); words inside double quotes, and one to three words inside single quotes ("'Sam'",
 * "'The Man'"), are marked as nickname words (quotes removed); words without any letter (digits,
 * punctuation, emoji) and addresses (e-mail, web, "@handle") are dropped; a bar ends the name
 * ("Jane Roe | Acme Corp").
 */

import { honorificKind } from "./honorifics.ts";
import { isMojibakeLetter, isMojibakeTrail, looksLikeMojibake } from "./mojibake.ts";
import { isLegalFormWord } from "./legal_forms.ts";
import { postNominalKind } from "./post_nominals.ts";

export interface NameToken {
  text: string;
  /** The word stood inside double quotes (or inside single quotes, up to three words). */
  nick: boolean;
}

export interface TokenizedName {
  groups: NameToken[][];
  /** Text of the first closed double-quoted part with words in it, else null. */
  nickname: string | null;
  /** The words of a bracketed aside before every word, when they are one or two name words. */
  leadingAside: string[];
}

const QUOTES = new Set(['"', "“", "”", "„", "‟", "«", "»", "＂", "〝", "〞", "〟"]);
const OPENERS = new Set(["(", "[", "{", "<", "（", "［", "【", "｛", "〔", "〈", "《"]);
const CLOSERS = new Set([")", "]", "}", ">", "）", "］", "】", "｝", "〕", "〉", "》"]);
/** What ends a name and starts something else: "Jane Roe | Acme Corp". */
const ENDERS = new Set(["|", "｜", "¦"]);
const COMMAS = new Set([",", "，", "、", ";", "；"]);
const SPACE = /\s/u;
const LETTER = /\p{L}/u;
const JUNK_CHAR = /[\p{Extended_Pictographic}\p{Cf}\uFE0F\u20E3]/u;
const JUNK_CHARS = /[\p{Extended_Pictographic}\p{Cf}\uFE0F\u20E3]/gu;
const EDGE_PUNCT = /^[^\p{L}\p{M}'’]+|[^\p{L}\p{M}.'’]+$/gu;
/** "J.Smith", "J.R.R.Tolkien": initials glued to a name. */
const GLUED_INITIALS = /^((?:\p{L}\.)+)(\p{L}[\p{L}\p{M}'’-]+)$/u;
const GLUED_TITLE = /^(\p{L}{2,5}\.)(\p{Lu}[\p{L}\p{M}'’-]+)$/u;
const CJK_DOT = /[·・•]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_DOTS = /[·・•]+/u;

export function tokenizeName(input: string): TokenizedName {
  const asciiInput = isAsciiText(input);
  const text = singleQuotedPhrasesAsDouble(asciiInput ? input : input.normalize("NFC"));
  const groups: NameToken[][] = [[]];
  let nickname: string | null = null;
  let wordStart = -1;
  let depth = 0;
  let openerAt = -1;
  let inQuote = false;
  let quoted: string[] = [];
  let asideStart = -1;
  /** The first bracketed aside, when it came before every word. */
  let leadingAside: string | null = null;
  let wordsSoFar = 0;

  const push = (word: string, nick: boolean) => {
    wordsSoFar++;
    if (inQuote && !nick) quoted.push(word);
    else groups[groups.length - 1].push({ text: word, nick });
  };
  const flush = (end: number) => {
    if (wordStart < 0) return;
    const raw = text.slice(wordStart, end);
    wordStart = -1;
    const opening = raw.charCodeAt(0);
    const inSingleQuotes = !inQuote && (opening === 39 || opening === 0x2018 || opening === 0x2019)
      ? singleQuotedWord(raw)
      : null;
    if (inSingleQuotes !== null) {
      if (nickname === null) nickname = inSingleQuotes;
      push(inSingleQuotes, true);
      return;
    }
    const words = cleanWord(raw, asciiInput);
    if (typeof words === "string") push(words, false);
    else if (words !== null) { for (const word of words) push(word, false); }
  };

  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i)!;
    const next = i + (code > 0xffff ? 2 : 1);
    let kind = charKind(code);
    // mojibake ("Å»ukowski" for Żukowski, "Ã\u00a0" for à, "Ã“" for Ó, "á»³" for ỳ): a quote,
    // bracket or space that is part of a misread UTF-8 letter stays in its word
    if (kind !== WORD && code >= 0x80 && i > 0 && isMojibakeTrail(code)) {
      if (isMojibakeLetter(text, i, next)) kind = WORD;
    }
    if (depth > 0) {
      if (kind === OPENER) depth++;
      else if (kind === CLOSER && --depth === 0 && asideStart >= 0) {
        leadingAside = text.slice(asideStart, i);
        asideStart = -1;
      }
    } else if (kind === WORD) {
      if (wordStart < 0) wordStart = i;
    } else {
      flush(i);
      if (kind === OPENER) {
        depth = 1;
        openerAt = i;
        if (wordsSoFar === 0 && leadingAside === null && !inQuote) asideStart = next;
      } else if (kind === QUOTE) {
        if (inQuote) {
          inQuote = false;
          if (quoted.length > 0 && nickname === null) nickname = quoted.join(" ");
          for (const word of quoted) push(word, true);
          quoted = [];
        } else {
          inQuote = true;
        }
      } else if (kind === COMMA) {
        if (!inQuote) groups.push([]);
      } else if (kind === ENDER && !inQuote && wordsSoFar > 0) {
        // "Jane Roe | Acme Corp": what follows the bar is not the name
        break;
      }
    }
    i = next;
  }
  flush(text.length);
  // a bracket never closed ("(Jane Roe") is stray punctuation, not an aside swallowing the rest
  if (depth > 0) return tokenizeName(text.slice(0, openerAt) + " " + text.slice(openerAt + 1));
  if (inQuote) {
    // An unclosed quote is not a nickname: its words are ordinary words.
    inQuote = false;
    for (const word of quoted) push(word, false);
  }
  const kept = groups.some((g) => g.length === 0) ? groups.filter((g) => g.length > 0) : groups;
  // a name quoted from end to end ('"Jane Roe"', a display name as address books write it) is
  // the name itself, not a nickname
  if (nickname !== null && kept.every((g) => g.every((t) => t.nick))) {
    for (const g of kept) for (const t of g) t.nick = false;
    nickname = null;
  }
  const lastGroup = kept[kept.length - 1];
  if (lastGroup !== undefined) {
    const last = lastGroup[lastGroup.length - 1];
    if (!last.nick) last.text = withoutClosingPeriod(last.text);
  }
  return {
    groups: kept,
    nickname,
    leadingAside: leadingAside === null ? [] : asideWords(leadingAside, asciiInput),
  };
}

/**
 * The period that ends a sentence, not an abbreviation: "Jane Roe." → "Roe" (a word of three
 * letters or more with no other period, not a title, post-nominal or legal form: "Esq.", "Jun.",
 * "Inc." keep theirs).
 */
function withoutClosingPeriod(word: string): string {
  if (word.charCodeAt(word.length - 1) !== 46) return word;
  let end = word.length;
  while (end > 0 && word.charCodeAt(end - 1) === 46) end--;
  const core = word.slice(0, end);
  if (
    !CLOSED_WORD.test(core) || honorificKind(word) !== null || postNominalKind(word) !== null ||
    isLegalFormWord(word)
  ) {
    return word;
  }
  return core;
}
const CLOSED_WORD = /^\p{L}[\p{L}\p{M}'’-]*\p{L}[\p{L}\p{M}]$/u;

/**
 * "Sam 'The Man' Roe", "Sam ‘The Man’ Roe": two or three words inside single quotes are a
 * nickname as they are inside double quotes, so the quotes are made double. An apostrophe that
 * opens a word without a closing one ("Gerard 't Hooft") is left alone.
 */
function singleQuotedPhrasesAsDouble(text: string): string {
  if (text.indexOf("'") < 0 && text.indexOf("‘") < 0) return text;
  return text.replace(SINGLE_QUOTED_PHRASE, '$1"$2"');
}
const SINGLE_QUOTED_PHRASE =
  /(^|[\s,(])['‘](\p{L}[\p{L}\p{M}.-]*(?:\s+\p{L}[\p{L}\p{M}.-]*){1,2})['’](?=$|[\s,)])/gu;

/** "'Sam'", "‘Sam’": one word inside single quotes, returned without them; else null. */
function singleQuotedWord(word: string): string | null {
  const m = SINGLE_QUOTED.exec(word);
  return m ? m[1] : null;
}
const SINGLE_QUOTED = /^['‘’](\p{L}[\p{L}\p{M}.’'-]*\p{L}\.?)['’]$/u;

/**
 * An aside's words when they are one or two name words (not a title or a credential: "(Mr.)
 * Smith" stays one word), else none.
 */
function asideWords(aside: string, asciiInput: boolean): string[] {
  const words = aside.split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 2) return [];
  const cleanedWords: string[] = [];
  for (const word of words) {
    const w = cleanWord(word, asciiInput);
    if (typeof w !== "string" || !NAME_WORD.test(w)) return [];
    if (honorificKind(w) === "strong" || postNominalKind(w) !== null) return [];
    cleanedWords.push(w);
  }
  return cleanedWords;
}
const NAME_WORD = /^\p{L}[\p{L}\p{M}'’.-]*$/u;

const WORD = 0, SPACE_KIND = 1, OPENER = 2, CLOSER = 3, QUOTE = 4, COMMA = 5, ENDER = 6;

/** What a character does to the tokenizer (ASCII by code, the rest through the sets). */
function charKind(code: number): number {
  if (code < 128) {
    // "Jane_Roe"; control characters (NUL, escape, DEL) separate words like spaces
    if (code <= 32 || code === 95 || code === 127) return SPACE_KIND;
    if (code === 44 || code === 59) return COMMA;
    if (code === 34) return QUOTE;
    if (code === 40 || code === 91 || code === 123 || code === 60) return OPENER;
    if (code === 41 || code === 93 || code === 125 || code === 62) return CLOSER;
    if (code === 124) return ENDER;
    return WORD;
  }
  if (code <= 0xffff) {
    const known = BMP_KINDS[code];
    if (known !== UNKNOWN_KIND) return known;
    return BMP_KINDS[code] = nonAsciiKind(code);
  }
  return nonAsciiKind(code);
}

/** `charKind` of the characters met so far in the Basic Multilingual Plane (a fixed answer each). */
const UNKNOWN_KIND = 255;
const BMP_KINDS = new Uint8Array(0x10000).fill(UNKNOWN_KIND);

function nonAsciiKind(code: number): number {
  const ch = String.fromCodePoint(code);
  if (OPENERS.has(ch)) return OPENER;
  if (CLOSERS.has(ch)) return CLOSER;
  if (QUOTES.has(ch)) return QUOTE;
  if (COMMAS.has(ch)) return COMMA;
  if (ENDERS.has(ch)) return ENDER;
  if (SPACE.test(ch)) return SPACE_KIND;
  return WORD;
}

/**
 * Trims junk around one raw word; may split glued initials or CJK middle dots. One word comes back
 * as a string (the usual case, no list), several as a list, none as null.
 */
function cleanWord(raw: string, asciiInput: boolean): string | string[] | null {
  if (isAddress(raw)) return null;
  let w = raw;
  // (an ASCII word cannot be mojibake, whose characters are all beyond ASCII)
  const ascii = asciiInput || isAsciiText(w);
  if (!ascii && looksLikeMojibake(w)) {
    // a misread UTF-8 word ("AndrÃ©", "GarcÃ\u00ada") is kept as written: its symbols and
    // invisible characters are the halves of its letters; only ASCII punctuation is trimmed
    w = trimAsciiPunctuation(w);
    return hasLetter(w) ? w : null;
  }
  if (ascii) {
    w = trimAsciiEdges(w);
    if (!hasAsciiLetter(w)) return null;
  } else {
    if (JUNK_CHAR.test(w)) w = w.replace(JUNK_CHARS, "");
    w = w.replace(EDGE_PUNCT, "");
    if (!LETTER.test(w)) return null;
    if (CJK_DOT.test(w) && CJK.test(w)) return w.split(CJK_DOTS).filter((p) => LETTER.test(p));
  }
  if (w.indexOf(".") >= 0) {
    const glued = GLUED_INITIALS.exec(w);
    if (glued) return [glued[1], glued[2]];
    // "Dr.Anna", "Prof.Jan": a title glued to the name
    const titled = GLUED_TITLE.exec(w);
    if (titled && honorificKind(titled[1]) === "strong") return [titled[1], titled[2]];
  }
  return w;
}

/**
 * An e-mail address, a web address or a social handle written beside a name ("jane@example.com",
 * "https://example.com/jane", "www.example.com", "@janeroe"): not a name word.
 */
function isAddress(raw: string): boolean {
  const at = raw.indexOf("@");
  if (at === 0) return raw.length > 1;
  if (at > 0) return raw.indexOf(".", at) > at + 1;
  if (raw.indexOf("://") > 0) return true;
  return raw.length > 4 && (raw.charCodeAt(0) | 32) === 119 && /^www\./i.test(raw);
}

function hasLetter(w: string): boolean {
  return ASCII_ONLY.test(w) ? hasAsciiLetter(w) : LETTER.test(w);
}

/** No character outside ASCII (surrogates included). */
const ASCII_ONLY = /^[^\u0080-\uFFFF]*$/;

/** `ASCII_ONLY.test(w)` without the regular expression. */
function isAsciiText(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (w.charCodeAt(i) >= 128) return false;
  return true;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function hasAsciiLetter(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (isAsciiLetter(w.charCodeAt(i))) return true;
  return false;
}

/** Trims ASCII punctuation only, as `trimAsciiEdges` does; other characters are kept. */
function trimAsciiPunctuation(w: string): string {
  let start = 0, end = w.length;
  while (start < end) {
    const c = w.charCodeAt(start);
    if (c >= 128 || isAsciiLetter(c) || c === 39) break;
    start++;
  }
  while (end > start) {
    const c = w.charCodeAt(end - 1);
    if (c >= 128 || isAsciiLetter(c) || c === 39 || c === 46) break;
    end--;
  }
  return w.slice(start, end);
}

/** EDGE_PUNCT for ASCII: no leading non-letters but `'`, no trailing ones but `.` and `'`. */
function trimAsciiEdges(w: string): string {
  let start = 0, end = w.length;
  while (start < end) {
    const c = w.charCodeAt(start);
    if (isAsciiLetter(c) || c === 39) break;
    start++;
  }
  while (end > start) {
    const c = w.charCodeAt(end - 1);
    if (isAsciiLetter(c) || c === 39 || c === 46) break;
    end--;
  }
  return start === 0 && end === w.length ? w : w.slice(start, end);
}
