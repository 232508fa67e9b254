/**
 * Sparse features for each word of a cleaned name: hashed character n-grams, word shape,
 * position, lexicon hits by origin and role, script, syllable structure, and the same
 * word-level features of the neighbouring, first and last words in their own hash namespaces.
 * Every feature is a row index into one embedding table of `buckets` rows; row `buckets` is
 * the all-zero padding row.
 */
import { fold, foldWithMarksLatin, isCjkScript, type Script, scriptOf } from "./text.ts";

export interface FeatureConfig {
  /** Number of hashed embedding rows (the padding row is `buckets`). */
  buckets: number;
  /** Feature slots per token (padded with the padding row, truncated beyond). */
  maxFeatures: number;
  /**
   * Adds, to each of the last two words of a name of three or more, whether both are known
   * surnames (and whether the first of them is also a known given name): "Suarez Acosta".
   */
  surnamePair?: boolean;
}

export const DEFAULT_FEATURE_CONFIG: FeatureConfig = { buckets: 1 << 17, maxFeatures: 64 };

/** Words that stay with the surname that follows them (matched on the folded word). */
export const PARTICLES: ReadonlySet<string> = new Set([
  "van",
  "von",
  "de",
  "da",
  "di",
  "del",
  "dela",
  "delos",
  "delas",
  "della",
  "delle",
  "dei",
  "degli",
  "des",
  "du",
  "le",
  "la",
  "lo",
  "les",
  "der",
  "den",
  "dem",
  "ter",
  "ten",
  "te",
  "zu",
  "zur",
  "vom",
  "do",
  "dos",
  "das",
  "bin",
  "ibn",
  "bint",
  "ben",
  "al",
  "al-",
  "el",
  "abu",
  "st",
  "st.",
  "ste",
  "saint",
  "mc",
  "mac",
  "d'",
  "l'",
  "van't",
  "vander",
  "vanden",
  "op",
  "het",
  "'t",
]);
/** Connectors between two surnames and short particles: particles only in lower case. */
export const LOWER_ONLY_PARTICLES: ReadonlySet<string> = new Set(["y", "e", "i", "in", "o'"]);
/** Irish particles matched on the lower-cased word with its accents ("Ó" must not match "O"). */
const ACCENTED_PARTICLES: ReadonlySet<string> = new Set(["ó", "ní", "nic", "ua", "uí", "mhic"]);

/** Low 16 bits of the FNV-1a hash of every particle of the three sets. */
const ANY_PARTICLE_BITS = new Uint32Array(1 << 11); // a bit per 16-bit hash value
for (const p of [...PARTICLES, ...LOWER_ONLY_PARTICLES, ...ACCENTED_PARTICLES]) {
  const h = asciiLowerHash(p);
  if (h >= 0) ANY_PARTICLE_BITS[(h >>> 5) & 0x7ff] |= 1 << (h & 31);
}

/** FNV-1a of the word lower-cased, or -1 when it is not printable ASCII (then `fold` may differ). */
function asciiLowerHash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    let c = word.charCodeAt(i);
    if (c < 32 || c > 126) return -1;
    if (c >= 65 && c <= 90) c |= 32;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h >>> 0;
}

/** True when the word is a surname particle (van, de la, bin, y…). */
export function isParticle(word: string): boolean {
  // printable ASCII: lower case is the folded form; a word whose hash no particle has is none
  const h = asciiLowerHash(word);
  if (h >= 0 && (ANY_PARTICLE_BITS[(h >>> 5) & 0x7ff] & (1 << (h & 31))) === 0) return false;
  if (LOWER_ONLY_PARTICLES.has(word)) return true;
  if (ACCENTED_PARTICLES.has(word.toLowerCase())) return true;
  const f = fold(word);
  return PARTICLES.has(f);
}

/** Lexicon: folded word → tag ids; tag names like "g.en", "s.zh", "s.en.r1". */
export interface LexiconData {
  tags: string[];
  entries: Map<string, number[]>;
  /** Syllable inventories by origin (e.g. zh pinyin, ko romanisation, ja romaji). */
  syllables: Record<string, string[]>;
}

/** Parses the shipped lexicon text: a header line of tag names, then `word\tid,id…` lines. */
export function parseLexicon(text: string): LexiconData {
  const lines = text.split("\n");
  const head = JSON.parse(lines[0]) as { tags: string[]; syllables: Record<string, string[]> };
  const entries = new Map<string, number[]>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const tab = line.indexOf("\t");
    if (tab < 0) throw new Error(`lexicon line ${i + 1} has no tab`);
    entries.set(line.slice(0, tab), line.slice(tab + 1).split(",").map(Number));
  }
  return { tags: head.tags, entries, syllables: head.syllables };
}

/** Serialises a lexicon into the text that `parseLexicon` reads. */
export function formatLexicon(lex: LexiconData): string {
  const out = [JSON.stringify({ tags: lex.tags, syllables: lex.syllables })];
  const keys = [...lex.entries.keys()].sort();
  for (const k of keys) out.push(`${k}\t${lex.entries.get(k)!.join(",")}`);
  return out.join("\n") + "\n";
}

// ---------------------------------------------------------------- hashing

function hashString(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function mix(h: number, ns: number): number {
  h = (h ^ Math.imul(ns, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Slots of the per-call word memo (a power of two; it holds at most half as many words). */
const MEMO_SLOTS = 1024;

const NS_SELF = 1, NS_PREV = 2, NS_NEXT = 3, NS_FIRST = 4, NS_LAST = 5, NS_PREV2 = 6, NS_NEXT2 = 7;
const NS_POS_FIRST = 8, NS_POS_LAST = 9, NS_NAME = 10;

const F = (s: string) => hashString(s);
/** `P(prefix)(s)` = `F(prefix + s)` without building the string (FNV-1a continues). */
const P = (prefix: string) => {
  const seed = hashString(prefix);
  return (s: string) => hashString(s, seed);
};
const H_WORD = P("w:"), H_RAW = P("raw:");
/** Low 16 bits of `H_WORD` of every particle and accented particle: a word whose hash is not here is not one. */
const PARTICLE_BITS = new Uint32Array(1 << 11); // a bit per 16-bit hash value
for (const p of [...PARTICLES, ...ACCENTED_PARTICLES]) {
  const h = H_WORD(p);
  PARTICLE_BITS[(h >>> 5) & 0x7ff] |= 1 << (h & 31);
}
const maybeParticle = (h: number) => (PARTICLE_BITS[(h >>> 5) & 0x7ff] & (1 << (h & 31))) !== 0;
const LONGEST_LOWER_ONLY = Math.max(...[...LOWER_ONLY_PARTICLES].map((p) => p.length));
const LOWER_ONLY_FIRST = new Set([...LOWER_ONLY_PARTICLES].map((p) => p.charCodeAt(0)));
const H_SHAPE = P("sh:");
const SCRIPT_H = new Map<string, number>();
const LEN_H = [0, 1, 2, 3, 4, 5, 6].map((i) => F(`len:${i}`));
const CJKLEN_H = [0, 1, 2, 3, 4].map((i) => F(`cjklen:${i}`));
const HYPHEN = F("hyphen"), APOS = F("apos"), PERIOD = F("period"), DIACRITICS = F("diacritics");
const INITIAL = F("initial"), PARTICLE = F("particle"), ALLCAPS = F("allcaps");
const LEX_NONE = F("lex:none");
const PAIR_SUR = F("pair:sur2"), PAIR_SUR_GIV = F("pair:sur2:giv");
const NON_LETTER = /[^\p{L}]/gu;
const POS_START = [0, 1, 2, 3].map((i) => F(`ps${i}`));
const POS_END = [0, 1, 2, 3].map((i) => F(`pe${i}`));
const N_WORDS = [0, 1, 2, 3, 4, 5, 6].map((i) => F(`n${i}`));
const BOS = F("<bos>"), EOS = F("<eos>"), BIAS = F("<bias>");
const NAME_ALL_CAPS = F("name:caps"), NAME_ALL_LOWER = F("name:lower");
const CAPS_IN_MIXED = F("caps-in-mixed"), LOWER_IN_MIXED = F("lower-in-mixed");

/**
 * Word-level features, computed once per word and reused for every namespace. The hashes live in
 * the featurizer's pool (one Int32Array reused between calls); each list is a range of it.
 */
interface WordInfo {
  /** The word as written (the memo's key). */
  word: string;
  /** Only for the word itself: n-grams, raw forms. `[ownStart, ownEnd)` of the pool. */
  ownStart: number;
  ownEnd: number;
  /** For the word itself and as context of other words. */
  sharedStart: number;
  sharedEnd: number;
  /** Lexicon tag / shape hashes used in position conjunctions. */
  coreStart: number;
  coreEnd: number;
  caps: boolean;
  lower: boolean;
  letters: boolean;
  /** The whole word is in the lexicon as a surname / as a given name. */
  sur: boolean;
  giv: boolean;
}

function shapeOf(word: string): string {
  let out = "";
  let last = "";
  let run = 0;
  for (const ch of word) {
    let c: string;
    if (ch >= "0" && ch <= "9") c = "d";
    else if (ch.toLowerCase() !== ch) c = "X";
    else if (ch.toUpperCase() !== ch) c = "x";
    else if (/\p{L}/u.test(ch)) c = "L";
    else c = ch;
    if (c === last) {
      run++;
      if (run === 2) out += c;
    } else {
      out += c;
      last = c;
      run = 1;
    }
  }
  return out.length > 12 ? out.slice(0, 12) : out;
}

const SHAPE_SEED = hashString("sh:");
const RP_SEED = hashString("rp:"), RS_SEED = hashString("rs:"), S3_SEED = hashString("s3:");
/** `hashString(s.slice(start, end), seed)` without the slice. */
function hashRange(s: string, start: number, end: number, seed: number): number {
  let h = seed >>> 0;
  for (let i = start; i < end; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
/** `F("sh:" + shapeOf(word))` for printable ASCII words, without building the shape. */
function shapeHashAscii(word: string): number {
  let h = SHAPE_SEED;
  let last = -1;
  let run = 0;
  let emitted = 0;
  for (let i = 0; i < word.length && emitted < 12; i++) {
    const ch = word.charCodeAt(i);
    const c = ch >= 48 && ch <= 57
      ? 100
      : ch >= 65 && ch <= 90
      ? 88
      : ch >= 97 && ch <= 122
      ? 120
      : ch;
    let emit = false;
    if (c === last) {
      run++;
      if (run === 2) emit = true;
    } else {
      emit = true;
      last = c;
      run = 1;
    }
    if (emit) {
      h ^= c;
      h = Math.imul(h, 0x01000193);
      emitted++;
    }
  }
  return h >>> 0;
}

/** `shapeOf`'s class of each character of the Basic Multilingual Plane met so far (0: not yet). */
const SHAPE_CLASS = new Uint16Array(0x10000);

function shapeClass(c: number): number {
  let k = SHAPE_CLASS[c];
  if (k === 0) {
    const ch = String.fromCharCode(c);
    const cls = ch >= "0" && ch <= "9"
      ? "d"
      : ch.toLowerCase() !== ch
      ? "X"
      : ch.toUpperCase() !== ch
      ? "x"
      : /\p{L}/u.test(ch)
      ? "L"
      : ch;
    SHAPE_CLASS[c] = k = cls.charCodeAt(0);
  }
  return k;
}

/**
 * `F("sh:" + shapeOf(word))` without building the shape: `shapeOf` classes each character by
 * itself, so a table of classes serves every word without surrogate pairs (those go through it).
 */
function shapeHashBmp(word: string): number {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return H_SHAPE(shapeOf(word));
  }
  let h = SHAPE_SEED;
  let last = -1;
  let run = 0;
  let emitted = 0;
  for (let i = 0; i < word.length && emitted < 12; i++) {
    const c = shapeClass(word.charCodeAt(i));
    let emit = false;
    if (c === last) {
      run++;
      if (run === 2) emit = true;
    } else {
      emit = true;
      last = c;
      run = 1;
    }
    if (emit) {
      h ^= c;
      h = Math.imul(h, 0x01000193);
      emitted++;
    }
  }
  return h >>> 0;
}

/** Letters of a word (code points), without building an array. */
function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

/** True when every code unit is printable ASCII, space to tilde. */
function isPrintableAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c > 126) return false;
  }
  return true;
}

/** True when the string holds only ASCII letters a-z / A-Z (nothing for NON_LETTER to remove). */
function isAsciiLetters(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) | 32;
    if (c < 97 || c > 122) return false;
  }
  return true;
}

function lengthBucket(n: number): number {
  return n <= 1 ? n : n <= 3 ? 2 : n <= 5 ? 3 : n <= 7 ? 4 : n <= 10 ? 5 : 6;
}

/**
 * Syllable inventories that mark only the words they split (Singapore, Malaysia and Hong Kong
 * spellings of Chinese syllables, "zhs"): "does not split" on every other word would be one more
 * feature for each word and its context, and 40 % of tokens already fill the 64 feature slots, so
 * it would push out their own n-grams.
 */
const SPLIT_ONLY_SYLLABLES: ReadonlySet<string> = new Set(["zhs"]);

/** A letter trie over a-z (+ ō, ū) for syllable inventories; no allocation while matching. */
class SyllableTrie {
  readonly #next: Int32Array;
  readonly #end: Uint8Array;
  constructor(list: readonly string[]) {
    let nodes = 1;
    const next: number[] = new Array(28).fill(-1);
    const end: number[] = [0];
    for (const syl of list) {
      let n = 0;
      let ok = true;
      for (let k = 0; k < syl.length; k++) {
        const c = SyllableTrie.code(syl.charCodeAt(k));
        if (c < 0) {
          ok = false;
          break;
        }
        if (next[n * 28 + c] < 0) {
          next[n * 28 + c] = nodes++;
          for (let z = 0; z < 28; z++) next.push(-1);
          end.push(0);
        }
        n = next[n * 28 + c];
      }
      if (ok) end[n] = 1;
    }
    this.#next = Int32Array.from(next);
    this.#end = Uint8Array.from(end);
  }
  static code(ch: number): number {
    if (ch >= 97 && ch <= 122) return ch - 97;
    if (ch === 0x14d) return 26;
    if (ch === 0x16b) return 27;
    return -1;
  }
  /** Fewest syllables covering the lower-case word, or 0 when it does not split (max 4). */
  count(word: string, best: Int32Array): number {
    const n = word.length;
    if (n === 0 || n > 24) return 0;
    // no syllable starts with the first letter: nothing splits (the usual case)
    const c0 = SyllableTrie.code(word.charCodeAt(0));
    if (c0 < 0 || this.#next[c0] < 0) return 0;
    for (let i = 0; i <= n; i++) best[i] = 99;
    best[0] = 0;
    for (let i = 0; i < n; i++) {
      if (best[i] >= 99) continue;
      let node = 0;
      for (let j = i; j < n; j++) {
        const c = SyllableTrie.code(word.charCodeAt(j));
        if (c < 0) break;
        node = this.#next[node * 28 + c];
        if (node < 0) break;
        if (this.#end[node] && best[i] + 1 < best[j + 1]) best[j + 1] = best[i] + 1;
      }
    }
    return best[n] >= 99 ? 0 : Math.min(best[n], 4);
  }
}

/**
 * The lexicon for lookups while featurizing: open addressing on the word's "w:" feature hash
 * (which the featurizer computes anyway), every entry packed in one Uint16Array as
 * `[length, code units…, count, tag ids…, flags]` (flags: 1 a surname tag, 2 a given-name
 * tag), so that a lookup touches two small places instead of a Map of strings and its arrays.
 * Answers exactly as the Map it is built from (the key's code units are compared).
 */
class LexiconTable {
  readonly #slots: Int32Array;
  readonly #mask: number;
  readonly pool: Uint16Array;

  constructor(
    entries: ReadonlyMap<string, readonly number[]>,
    surTag: Uint8Array,
    givTag: Uint8Array,
  ) {
    let cap = 1024;
    while (cap < entries.size * 2.5) cap *= 2;
    this.#mask = cap - 1;
    this.#slots = new Int32Array(cap * 2);
    let size = 0;
    for (const [k, ids] of entries) size += k.length + ids.length + 3;
    const pool = new Uint16Array(size);
    let top = 0;
    for (const [k, ids] of entries) {
      const at = top;
      if (k.length > 0xffff || ids.length > 0xffff) throw new RangeError("lexicon entry too long");
      pool[top++] = k.length;
      for (let i = 0; i < k.length; i++) pool[top++] = k.charCodeAt(i);
      pool[top++] = ids.length;
      let flags = 0;
      for (const id of ids) {
        if (!(id >= 0 && id <= 0xffff)) throw new RangeError("lexicon tag id out of range");
        pool[top++] = id;
        if (surTag[id]) flags |= 1;
        if (givTag[id]) flags |= 2;
      }
      pool[top++] = flags;
      const h = H_WORD(k);
      let slot = h & this.#mask;
      while (this.#slots[2 * slot + 1] !== 0) slot = (slot + 1) & this.#mask;
      this.#slots[2 * slot] = h;
      this.#slots[2 * slot + 1] = at + 1;
    }
    this.pool = pool;
  }

  /** Where the key's count of tags sits in `pool`, or -1; `h` is `H_WORD(key)`. */
  find(key: string, h: number): number {
    const slots = this.#slots, pool = this.pool, n = key.length;
    let slot = h & this.#mask;
    for (;;) {
      const at = slots[2 * slot + 1] - 1;
      if (at < 0) return -1;
      if (slots[2 * slot] === (h | 0) && pool[at] === n) {
        let i = 0;
        while (i < n && pool[at + 1 + i] === key.charCodeAt(i)) i++;
        if (i === n) return at + 1 + n;
      }
      slot = (slot + 1) & this.#mask;
    }
  }
}

/** The rows of the features that do not depend on the words, for a table of `buckets` rows. */
function fixedRows(buckets: number) {
  const row = (h: number, ns: number) => mix(h, ns) % buckets;
  return {
    bias: row(BIAS, NS_SELF),
    posStart: POS_START.map((h) => row(h, NS_SELF)),
    posEnd: POS_END.map((h) => row(h, NS_SELF)),
    nWords: N_WORDS.map((h) => row(h, NS_SELF)),
    nameAllCaps: row(NAME_ALL_CAPS, NS_NAME),
    nameAllLower: row(NAME_ALL_LOWER, NS_NAME),
    capsInMixed: row(CAPS_IN_MIXED, NS_NAME),
    lowerInMixed: row(LOWER_IN_MIXED, NS_NAME),
    pairSur: row(PAIR_SUR, NS_NAME),
    pairSurGiv: row(PAIR_SUR_GIV, NS_NAME),
    capsPrev: row(CAPS_IN_MIXED, NS_PREV),
    capsNext: row(CAPS_IN_MIXED, NS_NEXT),
    capsFirst: row(CAPS_IN_MIXED, NS_FIRST),
    capsLast: row(CAPS_IN_MIXED, NS_LAST),
    bos: row(BOS, NS_PREV),
    eos: row(EOS, NS_NEXT),
  };
}
type FixedRows = ReturnType<typeof fixedRows>;

export interface FeaturizedBatch {
  /** Row indices, `tokens × width`, padded with `buckets`. */
  indices: Int32Array;
  tokens: number;
  /** Feature slots per token in `indices`: the most any token of the batch uses (≤ maxFeatures). */
  width: number;
  /** offsets[i] = first token of name i; offsets[names] = tokens. */
  offsets: Int32Array;
}

/** Unpadded feature rows (see `Featurizer.featurizeRows`). */
export interface FeaturizedRows extends FeaturizedBatch {
  /** Rows used by each token (≤ maxFeatures); `indices` has a stride of maxFeatures. */
  counts: Int32Array;
}

export class Featurizer {
  readonly config: FeatureConfig;
  readonly #lex: LexiconTable;
  readonly #tagHashes: Int32Array;
  readonly #syl: { origin: string; trie: SyllableTrie; hashes: number[]; splitOnly: boolean }[];
  readonly #best = new Int32Array(32);
  readonly #eastAsianSyllables: ReadonlySet<string>;
  readonly #rows: FixedRows;
  /**
   * Per-call memo of word features, open addressing on the word's raw-form hash: `#memoGen`
   * stamps a slot as this call's (no words outlive a call), `#memoAt` is the slot's index in
   * `#memo`, which is emptied after every call.
   */
  readonly #memoGen = new Int32Array(MEMO_SLOTS);
  readonly #memoAt = new Int32Array(MEMO_SLOTS);
  readonly #memo: WordInfo[] = [];
  #gen = 1;
  /** Reused between calls: the words' feature hashes (cleared with the memo), its top. */
  #pool = new Int32Array(4096);
  #top = 0;
  /** Reused between calls: the unpadded index rows, features per token, word infos. */
  #scratch = new Int32Array(0);
  #counts = new Int32Array(0);
  readonly #infos: WordInfo[] = [];

  constructor(lexicon: LexiconData, config: FeatureConfig = DEFAULT_FEATURE_CONFIG) {
    this.config = config;
    this.#rows = fixedRows(config.buckets);
    this.#tagHashes = Int32Array.from(lexicon.tags, (t) => F(`lex:${t}`));
    this.#lex = new LexiconTable(
      lexicon.entries,
      Uint8Array.from(lexicon.tags, (t) => (t.startsWith("s.") ? 1 : 0)),
      Uint8Array.from(lexicon.tags, (t) => (t.startsWith("g.") ? 1 : 0)),
    );
    this.#syl = Object.entries(lexicon.syllables).map(([origin, list]) => ({
      origin,
      trie: new SyllableTrie(list),
      hashes: [0, 1, 2, 3, 4].map((k) => F(`syl:${origin}:${k}`)),
      splitOnly: SPLIT_ONLY_SYLLABLES.has(origin),
    }));
    this.#eastAsianSyllables = new Set([
      ...(lexicon.syllables.zh ?? []),
      ...(lexicon.syllables.ko ?? []),
    ]);
  }

  /** True when the word, folded, is one syllable of the Chinese or Korean inventory ("Ting"). */
  readonly isEastAsianSyllable = (word: string): boolean =>
    this.#eastAsianSyllables.has(fold(word));

  /** Makes room for `more` hashes at the top of the pool (kept when it grows). */
  #reserve(more: number): Int32Array {
    if (this.#pool.length < this.#top + more) {
      const grown = new Int32Array(Math.max(2 * this.#pool.length, this.#top + more));
      grown.set(this.#pool.subarray(0, this.#top));
      this.#pool = grown;
    }
    return this.#pool;
  }

  /**
   * Appends the lexicon tag hashes of `key` (mixed with `prefix` unless 0) to the pool; returns
   * the key's surname / given-name flags (1, 2), or -1 when the key is not in the lexicon. `h` is
   * `H_WORD(key)` when the caller has it.
   */
  #lexHits(key: string, prefix: number, h: number = H_WORD(key)): number {
    const at = this.#lex.find(key, h);
    if (at < 0) return -1;
    const lex = this.#lex.pool;
    const n = lex[at];
    const pool = this.#reserve(n);
    let top = this.#top;
    const tags = this.#tagHashes;
    for (let i = 1; i <= n; i++) {
      const h = tags[lex[at + i]];
      pool[top++] = prefix === 0 ? h : mix(h, prefix);
    }
    this.#top = top;
    return lex[at + n + 1];
  }

  #push(h: number): void {
    const pool = this.#top < this.#pool.length ? this.#pool : this.#reserve(1);
    pool[this.#top++] = h;
  }

  #word(word: string): WordInfo {
    const rawH = H_RAW(word);
    let slot = rawH & (MEMO_SLOTS - 1);
    const gen = this.#gen;
    while (this.#memoGen[slot] === gen) {
      const seen = this.#memo[this.#memoAt[slot]];
      if (seen.word === word) return seen;
      slot = (slot + 1) & (MEMO_SLOTS - 1);
    }
    // Printable ASCII (the common case) needs no Unicode folding or case mapping: `fold` is the
    // lower-cased word, and the case flags come from one pass over the characters.
    const ascii = isPrintableAscii(word);
    let folded: string, lower: string, hasUpper = false, hasLower = false, diacritics = false;
    if (ascii) {
      folded = lower = word.toLowerCase();
      for (let i = 0; i < word.length; i++) {
        const c = word.charCodeAt(i);
        if (c >= 65 && c <= 90) hasUpper = true;
        else if (c >= 97 && c <= 122) hasLower = true;
      }
    } else {
      ({ folded, diacritics } = foldWithMarksLatin(word));
      lower = word.toLowerCase();
      hasUpper = lower !== word;
      hasLower = word.toUpperCase() !== word;
    }
    const script: Script = scriptOf(word);
    // the word without a trailing period (initials, abbreviations)
    const bare = folded.endsWith(".") ? folded.slice(0, -1) : folded;
    const letters = isAsciiLetters(bare) ? bare : bare.replace(NON_LETTER, "");
    const nLetters = codePointLength(letters);

    // own: identity as written, character n-grams, raw-case prefix / suffix
    this.#reserve(128);
    const pool = this.#pool;
    let top = this.#top;
    const ownStart = top;
    pool[top++] = rawH;
    // character n-grams of the folded word with boundary marks
    // (over "^" + the first 16 code units + "$", without building that string)
    const mLen = (bare.length > 16 ? 16 : bare.length) + 2;
    for (let i = 0; i < mLen; i++) {
      let h = 0x811c9dc5;
      for (let j = i; j < mLen && j < i + 5; j++) {
        h ^= j === 0 ? 94 : j === mLen - 1 ? 36 : bare.charCodeAt(j - 1);
        h = Math.imul(h, 0x01000193);
        const len = j - i + 1;
        if (len >= 2 && (len <= 4 || i === 0 || j === mLen - 1)) {
          pool[top++] = mix(h >>> 0, 100 + len);
        }
      }
    }
    pool[top++] = hashRange(word, 0, word.length < 3 ? word.length : 3, RP_SEED);
    pool[top++] = hashRange(word, word.length < 3 ? 0 : word.length - 3, word.length, RS_SEED);
    const ownEnd = top;

    // shared: identity, suffix, shape, script, length, marks, lexicon hits, syllables
    const sharedStart = top;
    const wordH = H_WORD(bare);
    pool[top++] = wordH;
    pool[top++] = hashRange(bare, bare.length < 3 ? 0 : bare.length - 3, bare.length, S3_SEED);
    const shapeH = ascii ? shapeHashAscii(word) : shapeHashBmp(word);
    let scriptH = SCRIPT_H.get(script);
    if (scriptH === undefined) SCRIPT_H.set(script, scriptH = F(`sc:${script}`));
    pool[top++] = shapeH;
    pool[top++] = scriptH;
    pool[top++] = LEN_H[lengthBucket(nLetters)];
    if (word.includes("-")) pool[top++] = HYPHEN;
    if (word.includes("'") || word.includes("’")) pool[top++] = APOS;
    if (word.endsWith(".")) pool[top++] = PERIOD;
    if (diacritics) pool[top++] = DIACRITICS;
    const isInitial = nLetters === 1 && script === "latin";
    if (isInitial) pool[top++] = INITIAL;
    // (the length and hash checks only skip lookups that cannot succeed)
    const particle =
      (word.length <= LONGEST_LOWER_ONLY && LOWER_ONLY_FIRST.has(word.charCodeAt(0)) &&
        LOWER_ONLY_PARTICLES.has(word)) ||
      (maybeParticle(lower === bare ? wordH : H_WORD(lower)) && ACCENTED_PARTICLES.has(lower)) ||
      (maybeParticle(folded === bare ? wordH : H_WORD(folded)) && PARTICLES.has(folded)) ||
      (maybeParticle(wordH) && PARTICLES.has(bare));
    if (particle) pool[top++] = PARTICLE;
    const upperOnly = !hasLower && hasUpper;
    if (word.length > 1 && upperOnly) pool[top++] = ALLCAPS;
    this.#top = top;
    // lexicon hits (whole word, apostrophe-free, each hyphen part)
    const lexStart = top;
    const lexFlags = this.#lexHits(bare, 0, wordH);
    if (this.#top === lexStart && bare.includes("'")) this.#lexHits(bare.replace(/'/g, ""), 0);
    if (this.#top === lexStart && bare.includes(" ")) this.#lexHits(bare.replace(/ /g, ""), 0);
    if (this.#top === lexStart) this.#push(LEX_NONE);
    const lexEnd = this.#top;
    const hyphenated = bare.includes("-");
    if (hyphenated) {
      const parts = bare.split("-");
      for (let p = 0; p < parts.length && p < 3; p++) {
        if (parts[p]) this.#lexHits(parts[p], 200 + (p === 0 ? 0 : 1));
      }
      this.#lexHits(parts.join(""), 210);
    }
    // syllable structure (pinyin, Korean romanisation, romaji)
    if (script === "latin" && letters.length > 0) {
      for (let si = 0; si < this.#syl.length; si++) {
        const s = this.#syl[si];
        const k = s.trie.count(letters, this.#best);
        if (k === 0 && s.splitOnly) continue;
        this.#push(s.hashes[k]);
        if (k > 0 && hyphenated) this.#push(mix(s.hashes[k], 7));
      }
    } else if (isCjkScript(script)) {
      this.#push(CJKLEN_H[Math.min(codePointLength(word), 4)]);
    }
    const sharedEnd = this.#top;

    // core: shape, initial, particle, and the whole-word lexicon hits (or their absence)
    const lexCount = lexEnd - lexStart;
    const core = this.#reserve(3 + lexCount);
    top = this.#top;
    const coreStart = top;
    core[top++] = shapeH;
    if (isInitial) core[top++] = INITIAL;
    if (particle) core[top++] = PARTICLE;
    for (let i = lexStart; i < lexEnd; i++) core[top++] = core[i];
    this.#top = top;

    let sur = false, giv = false;
    if (lexFlags > 0 && this.config.surnamePair) {
      sur = (lexFlags & 1) !== 0;
      giv = (lexFlags & 2) !== 0;
    }
    const info: WordInfo = {
      word,
      ownStart,
      ownEnd,
      sharedStart,
      sharedEnd,
      coreStart,
      coreEnd: top,
      sur,
      giv,
      caps: upperOnly && letters.length > 1,
      lower: !hasUpper && hasLower,
      letters: letters.length > 0,
    };
    if (this.#memo.length < MEMO_SLOTS / 2) {
      this.#memoGen[slot] = gen;
      this.#memoAt[slot] = this.#memo.length;
      this.#memo.push(info);
    }
    return info;
  }

  /** Featurizes many names (each a list of cleaned words) into one padded index matrix. */
  featurizeBatch(names: readonly (readonly string[])[]): FeaturizedBatch {
    const { indices, counts, tokens, width, offsets } = this.featurizeRows(names);
    const K = this.config.maxFeatures;
    const B = this.config.buckets;
    if (tokens === 0) return { indices: new Int32Array(0), tokens, width: K, offsets };
    // compact to the width actually used, padded with the padding row
    const out = new Int32Array(tokens * width);
    for (let i = 0; i < tokens; i++) {
      const c = counts[i];
      out.set(indices.subarray(i * K, i * K + c), i * width);
      if (c < width) out.fill(B, i * width + c, (i + 1) * width);
    }
    return { indices: out, tokens, width, offsets };
  }

  /**
   * Featurizes many names without padding: token `t`'s rows are
   * `indices[t * maxFeatures, t * maxFeatures + counts[t])`. The two arrays are `into`'s when it
   * has room (the forward kernel's memory), else the featurizer's own buffers, valid until its
   * next call.
   */
  featurizeRows(
    names: readonly (readonly string[])[],
    into?: { indices: Int32Array; counts: Int32Array },
  ): FeaturizedRows {
    let tokens = 0;
    for (const n of names) tokens += n.length;
    const K = this.config.maxFeatures;
    const B = this.config.buckets;
    const pair = this.config.surnamePair === true;
    const rows = this.#rows;
    let indices: Int32Array, counts: Int32Array;
    if (into && into.indices.length >= tokens * K && into.counts.length >= tokens) {
      ({ indices, counts } = into);
    } else {
      if (this.#scratch.length < tokens * K) this.#scratch = new Int32Array(tokens * K * 2);
      if (this.#counts.length < tokens) this.#counts = new Int32Array(tokens * 2);
      indices = this.#scratch;
      counts = this.#counts;
    }
    const offsets = new Int32Array(names.length + 1);
    let t = 0;
    let width = 0;
    const infos = this.#infos;
    for (let ni = 0; ni < names.length; ni++) {
      offsets[ni] = t;
      const words = names[ni];
      const n = words.length;
      infos.length = 0;
      let allCaps = true, allLower = true;
      for (let wi = 0; wi < n; wi++) {
        const info = this.#word(words[wi]);
        infos.push(info);
        if (info.letters) {
          if (!info.caps) allCaps = false;
          if (!info.lower) allLower = false;
        }
      }
      const hashes = this.#pool; // every word of this name is in it now
      // (putAll with this call's arrays; no closure per name)
      for (let i = 0; i < n; i++, t++) {
        const start = t * K;
        const end = start + K;
        let k = start;
        const me = infos[i];
        indices[k++] = rows.bias;
        indices[k++] = rows.posStart[i < 3 ? i : 3];
        indices[k++] = rows.posEnd[n - 1 - i < 3 ? n - 1 - i : 3];
        indices[k++] = rows.nWords[n < 6 ? n : 6];
        if (allCaps) indices[k++] = rows.nameAllCaps;
        else if (allLower) indices[k++] = rows.nameAllLower;
        else if (me.caps) indices[k++] = rows.capsInMixed;
        else if (me.lower) indices[k++] = rows.lowerInMixed;
        if (pair && i >= n - 2 && n >= 3 && infos[n - 2].sur && infos[n - 1].sur) {
          indices[k++] = infos[n - 2].giv ? rows.pairSurGiv : rows.pairSur;
        }
        if (i === 0) k = putAll(indices, k, end, hashes, me.coreStart, me.coreEnd, NS_POS_FIRST, B);
        if (i === n - 1) {
          k = putAll(indices, k, end, hashes, me.coreStart, me.coreEnd, NS_POS_LAST, B);
        }
        k = putAll(indices, k, end, hashes, me.sharedStart, me.sharedEnd, NS_SELF, B);
        // context words
        if (i > 0) {
          const p = infos[i - 1];
          k = putAll(indices, k, end, hashes, p.sharedStart, p.sharedEnd, NS_PREV, B);
          if (!allCaps && p.caps && k < end) indices[k++] = rows.capsPrev;
        } else if (k < end) indices[k++] = rows.bos;
        if (i < n - 1) {
          const q = infos[i + 1];
          k = putAll(indices, k, end, hashes, q.sharedStart, q.sharedEnd, NS_NEXT, B);
          if (!allCaps && q.caps && k < end) indices[k++] = rows.capsNext;
        } else if (k < end) indices[k++] = rows.eos;
        if (i > 1) {
          k = putAll(
            indices,
            k,
            end,
            hashes,
            infos[i - 2].coreStart,
            infos[i - 2].coreEnd,
            NS_PREV2,
            B,
          );
        }
        if (i < n - 2) {
          k = putAll(
            indices,
            k,
            end,
            hashes,
            infos[i + 2].coreStart,
            infos[i + 2].coreEnd,
            NS_NEXT2,
            B,
          );
        }
        if (i > 1) {
          const first = infos[0];
          k = putAll(indices, k, end, hashes, first.coreStart, first.coreEnd, NS_FIRST, B);
          if (!allCaps && first.caps && k < end) indices[k++] = rows.capsFirst;
        }
        if (i < n - 2) {
          const last = infos[n - 1];
          k = putAll(indices, k, end, hashes, last.coreStart, last.coreEnd, NS_LAST, B);
          if (!allCaps && last.caps && k < end) indices[k++] = rows.capsLast;
        }
        k = putAll(indices, k, end, hashes, me.ownStart, me.ownEnd, NS_SELF, B);
        counts[t] = k - start;
        if (k - start > width) width = k - start;
      }
    }
    offsets[names.length] = t;
    infos.length = 0;
    this.#memo.length = 0;
    this.#gen = (this.#gen + 1) | 0 || 1;
    this.#top = 0;
    return { indices, counts, tokens, width, offsets };
  }
}

/**
 * Writes `mix(h, ns) % buckets` for each hash of `hashes[from, to)` while there is room;
 * returns the next slot.
 */
function putAll(
  out: Int32Array,
  k: number,
  end: number,
  hashes: Int32Array,
  from: number,
  to: number,
  ns: number,
  buckets: number,
): number {
  if ((buckets & (buckets - 1)) === 0) {
    // a power of two: the low bits of the mixed hash (= `% buckets` of the unsigned value)
    const mask = buckets - 1, nsMul = Math.imul(ns, 0x9e3779b1);
    for (let j = from; j < to && k < end; j++) {
      let h = hashes[j] ^ nsMul;
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
      out[k++] = h & mask;
    }
    return k;
  }
  for (let j = from; j < to && k < end; j++) out[k++] = mix(hashes[j] >>> 0, ns) % buckets;
  return k;
}
