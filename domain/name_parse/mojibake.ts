/**
 * Mojibake: a name's UTF-8 bytes read as Windows-1252 / Latin-1 somewhere upstream ("AndrÃ©" for
 * André). A two-byte letter becomes a lead "Â"–"ß" (U+00C2–U+00DF) and a trail from U+0080–U+00BF
 * or the Windows-1252 symbols of bytes 0x80–0x9F; a three-byte letter (Vietnamese "ỳ" → "á»³") a
 * lead "à"–"ï" and two trails. The tokenizer keeps such words whole and as written; the model
 * reads each as the word it stands for (`repairMojibake`).
 */

const MOJIBAKE =
  /[\u00c2-\u00ef][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]|\u00e2\u20ac/;
const MOJIBAKE_TRAIL =
  /[\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]/;
/** Windows-1252's characters for bytes 0x80–0x9F (its five undefined bytes stand for themselves). */
const CP1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";
const CP1252_BYTE = new Map([...CP1252_HIGH].map((c, i) => [c.charCodeAt(0), 0x80 + i]));
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The word holds a misread UTF-8 letter. */
export function looksLikeMojibake(word: string): boolean {
  return MOJIBAKE.test(word);
}

/**
 * A mojibake word read back ("AndrÃ©" → "André", "Å»aneta" → "Żaneta", "Nguyá»…n" → "Nguyễn");
 * null when the word is not one (a character outside those code pages, or bytes that are not
 * UTF-8).
 */
export function repairMojibake(word: string): string | null {
  if (!MOJIBAKE.test(word)) return null;
  const bytes = new Uint8Array(word.length);
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    const b = c < 0x100 ? c : CP1252_BYTE.get(c);
    if (b === undefined) return null;
    bytes[i] = b;
  }
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** Each space-separated word of `text` repaired where it is mojibake ("AndrÃ© Roe" → "André Roe"). */
export function repairMojibakeWords(text: string): string {
  return looksLikeMojibake(text)
    ? text.split(" ").map((word) => repairMojibake(word) ?? word).join(" ")
    : text;
}

export function isMojibakeTrail(code: number): boolean {
  return MOJIBAKE_TRAIL.test(String.fromCharCode(code));
}

/**
 * The trail character at `i` of `text` completes a misread UTF-8 letter: after a two-byte lead
 * ("Ã“" for Ó, "Ã\u00a0" for à, at the end of a word too), or as either trail of a three-byte one.
 * `next` is the index after it.
 */
export function isMojibakeLetter(text: string, i: number, next: number): boolean {
  const prev = text.charCodeAt(i - 1);
  if (isTwoByteLead(prev)) return true;
  if (isThreeByteLead(prev)) return next < text.length && isMojibakeTrail(text.charCodeAt(next));
  return i > 1 && isThreeByteLead(text.charCodeAt(i - 2)) && isMojibakeTrail(prev);
}

function isTwoByteLead(code: number): boolean {
  return code >= 0xc2 && code <= 0xdf;
}
function isThreeByteLead(code: number): boolean {
  return code >= 0xe0 && code <= 0xef;
}
