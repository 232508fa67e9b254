/**
 * A quick "certainly not in this word list" for the cleaning's lookups, which otherwise build a
 * lower-cased key string for every word only to miss. The hash is FNV-1a over the word's code
 * units lower-cased the ASCII way, skipping periods as the list's key does; a word with a
 * non-ASCII code unit is never ruled out (the caller then builds its key as before), so a
 * filtered lookup answers exactly what the unfiltered one does.
 */

/** How the list's keys treat periods: kept, all removed, or only trailing ones removed. */
export type KeyDots = "keep" | "all" | "trailing";

/** FNV-1a of the key `word` would give, or -1 when the word has a non-ASCII code unit. */
export function asciiKeyHash(word: string, dots: KeyDots): number {
  let end = word.length;
  if (dots === "trailing") { while (end > 0 && word.charCodeAt(end - 1) === 46) end--; }
  let h = 0x811c9dc5;
  for (let i = 0; i < end; i++) {
    let c = word.charCodeAt(i);
    if (c >= 128) return -1;
    if (c === 46 && dots === "all") continue;
    if (c >= 65 && c <= 90) c |= 32;
    h ^= c;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class KeyFilter {
  /** A bit per value of the hash's low 16 bits (8 KB). */
  readonly #bits = new Uint32Array(1 << 11);
  readonly #dots: KeyDots;

  /** `keys` as the list holds them (lower case, periods already treated as `dots` says). */
  constructor(keys: Iterable<string>, dots: KeyDots) {
    this.#dots = dots;
    for (const k of keys) {
      const h = asciiKeyHash(k, "keep");
      // a non-ASCII key can only be met by a non-ASCII word, which is never ruled out
      if (h >= 0) this.#bits[(h >>> 5) & 0x7ff] |= 1 << (h & 31);
    }
  }

  /** False only when the word's key is certainly not in the list. */
  mightHave(word: string): boolean {
    const h = asciiKeyHash(word, this.#dots);
    return h < 0 || (this.#bits[(h >>> 5) & 0x7ff] & (1 << (h & 31))) !== 0;
  }
}
