/**
 * From per-token label probabilities to a whole reading. Every valid reading (both orders,
 * every split) is scored as the product over tokens of P(given) or P(surname) for the block the
 * reading puts the token in; the scores are normalised over the valid readings, so
 * `confidence` is the probability of the chosen whole reading.
 *
 * Validity (particles stay with the surname that follows them; "van", "ben" and "al" only when
 * written in lower case in a name that has capitals, "Ludwig van Beethoven": they are also given
 * or middle names, so written with a capital or in a name all in one case the network decides
 * between "Thanh Van | Nguyen" and "Martin | Van Buren"; a particle that is also an East Asian
 * given-name syllable or a given name, "da", "de", "du", "do", "le", "della"…, written so binds
 * only when the network reads it as a particle: "Leonardo | Da Vinci" but "Zhi Da | Wang"):
 * - given-first: a given block of two or more words does not end with a particle ("Ludwig van |
 *   Beethoven" is not a reading);
 * - surname-first: a surname block of two or more words does not end with a particle
 *   ("de la | Juan" is not a reading).
 * A one-word block may be a word that is a particle elsewhere ("Ben | Johnson", "Al | Gore",
 * Vietnamese "Le", Chinese "Du"), and a given block may start with one (Vietnamese
 * "Nguyen | Van An"). The one-letter lower-case connectors y / e / i join two surnames
 * ("Suarez y Acosta", "Silva e Costa", "Puig i Cadafalch"), so a surname block never starts with
 * one, and in given-first order the given block may end with one: there it is an initial
 * ("john e | smith"). A word ending in a hyphen and a particle ("Vermeulen-De Wit") binds to
 * the next word like a particle, and a surname block is never only initials ("Rosa M Quintero B"
 * is not "Rosa M Quintero | B"). In a name of three or more words, two adjacent words that are the
 * same Chinese or Korean syllable (a reduplicated given name, "Ting Ting Wang", or a surname beside
 * the same given-name syllable, "Li Li Na") are never all surname, and a reading that splits them
 * leaves that one word as the whole surname (`doubledSyllableRuledOut`).
 *
 * `confidence` is calibrated: every reading's log-probability is divided by the model's
 * temperature (fitted on held-out names by the training pipeline, `calibration.temperature` in
 * `name_model.json`) before normalising. `bothOrders` is true when the readings in the other
 * order together hold at least `BOTH_ORDERS_CUT` (0.25) of that calibrated mass: a genuinely
 * plausible alternative.
 */
import { isParticle } from "./featurize.ts";
import { fold } from "./text.ts";
import type { NameOrder, NameReading, ReadingConstraint } from "./types.ts";

export const BOTH_ORDERS_CUT = 0.25;

/** True when some letter of the name is a capital. */
function hasCapital(words: readonly string[]): boolean {
  for (const w of words) {
    for (let i = 0; i < w.length; i++) {
      const c = w.charCodeAt(i);
      if (c >= 128) {
        // beyond ASCII the lower-cased copy tells
        if (w !== w.toLowerCase()) return true;
        break;
      }
      if (c >= 65 && c <= 90) return true;
    }
  }
  return false;
}

/** Particles that are also given or middle names, folded (Vietnamese Văn, Ben, Al). */
const ALSO_GIVEN: ReadonlySet<string> = new Set(["van", "ben", "al"]);

/**
 * Particles that are also given names or syllables of East Asian given names, folded: Del and
 * Della ("Renetta Della Harper"); pinyin da, de, di, du, le, la, lo, bin, zu; Korean and
 * Vietnamese do (Đỗ), le (Lê). "Zhi Da", "Ming De", "Seo Do".
 */
const ALSO_GIVEN_PART: ReadonlySet<string> = new Set([
  "del",
  "della",
  "da",
  "de",
  "di",
  "du",
  "do",
  "le",
  "la",
  "lo",
  "bin",
  "zu",
]);

/**
 * A word that binds to the surname after it: a particle written in lower case in a name with
 * capitals ("Ludwig van Beethoven"). Written otherwise, a particle that is also a given or middle
 * name never binds (the network decides between "Thanh Van | Nguyen" and "Martin | Van Buren"),
 * one that is also a given-name syllable binds when the network reads it as a particle rather
 * than a given name ("Leonardo | Da Vinci", "Zhi Da | Wang"), and any other always binds ("Ó").
 * `particleMass` and `givenMass` are the network's probabilities of the word's labels.
 */
function bindingParticle(
  word: string,
  capitals: boolean,
  particleMass: number,
  givenMass: number,
): boolean {
  if (endsWithHyphenParticle(word)) return true;
  if (!isParticle(word)) return false;
  if (capitals && word === word.toLowerCase()) return true;
  const folded = fold(word);
  if (ALSO_GIVEN.has(folded)) return false;
  return !ALSO_GIVEN_PART.has(folded) || particleMass >= givenMass;
}

/** A particle joined to the word before it by a hyphen ("Vermeulen-De" of "Vermeulen-De Wit"). */
function endsWithHyphenParticle(word: string): boolean {
  const dash = word.lastIndexOf("-");
  return dash > 0 && dash < word.length - 1 && isParticle(word.slice(dash + 1));
}

const INITIAL = /^[\p{Lu}\p{Ll}]\.?$/u;

/** One cased letter, with or without a period: "A", "c." (not a one-character CJK name). */
function isInitial(word: string): boolean {
  const length = word.length;
  if (length === 0 || length > 2) return false;
  const c = word.charCodeAt(0);
  if (c >= 128) return INITIAL.test(word);
  const lower = c | 32;
  return lower >= 97 && lower <= 122 && (length === 1 || word.charCodeAt(1) === 46);
}

/**
 * Where the initials at either end of a name stop, so that a surname block that is nothing but
 * initials can be refused (a surname is never only an initial): in given-first order the surname
 * block [k, n) is only initials when `k > lastNonInitial`; in surname-first order the surname
 * block [0, k) is only initials when `k <= firstNonInitial`.
 */
function initialBounds(words: readonly string[]) {
  const n = words.length;
  let firstNonInitial = 0;
  while (firstNonInitial < n && isInitial(words[firstNonInitial])) firstNonInitial++;
  let lastNonInitial = n - 1;
  while (lastNonInitial >= 0 && isInitial(words[lastNonInitial])) lastNonInitial--;
  return { firstNonInitial, lastNonInitial };
}

/** The one-letter lower-case connectors between two surnames: y, e, i. */
function isConnector(word: string): boolean {
  return word === "y" || word === "e" || word === "i";
}

/** True when a word is one syllable of a Chinese or Korean given name ("Ting", "Min"). */
export type SyllableTest = (word: string) => boolean;

/**
 * The readings a doubled syllable rules out, as flags per reading index (given-first split k at
 * k - 1, surname-first split k at n - 2 + k); null when the name has none. Two adjacent words of a
 * name of three or more that are the same Chinese or Korean syllable, whatever their case ("Ting
 * Ting", "LU LU"), are a reduplicated given name (叠字: "Ting Ting Wang", "Wang Ting Ting") or a
 * surname beside a given name that begins or ends with the same syllable ("Li Li Na", "Na Li Li").
 * Either way the pair is never all surname, and when a reading splits it the surname is that one
 * word: "Ge | Ge Sun" (given "Ge", surname "Ge Sun") and "Sun | Ge Ge" (surname "Ge Ge") are not
 * readings; "Ge Ge | Sun" and "Li | Li Na" are.
 */
export function doubledSyllableRuledOut(
  words: readonly string[],
  isSyllable: SyllableTest | undefined,
): Uint8Array | null {
  const n = words.length;
  if (!isSyllable || n < 3) return null;
  let out: Uint8Array | null = null;
  for (let i = 0; i + 1 < n; i++) {
    const a = words[i], b = words[i + 1];
    if (a.length !== b.length || a.toLowerCase() !== b.toLowerCase() || !isSyllable(a)) continue;
    out ??= new Uint8Array(2 * (n - 1));
    for (let k = 1; k < n; k++) {
      // given-first: surname [k, n); surname-first: surname [0, k)
      const gfAllSurname = i >= k, gfSplit = k === i + 1 && i + 1 !== n - 1;
      const sfAllSurname = i + 1 < k, sfSplit = k === i + 1 && i !== 0;
      if (gfAllSurname || gfSplit) out[k - 1] = 1;
      if (sfAllSurname || sfSplit) out[n - 2 + k] = 1;
    }
  }
  return out;
}

const EPS = 1e-7;

export interface ScoredReading {
  order: NameOrder;
  split: number;
  /** Normalised probability over the valid readings. */
  p: number;
}

/** Every valid reading of `n` words with its normalised probability (highest first). */
export function scoreReadings(
  words: readonly string[],
  probs: Float32Array,
  offset: number,
  numLabels: number,
  isSyllable?: SyllableTest,
): { readings: ScoredReading[]; all: Map<string, number> } {
  const n = words.length;
  // log P(given), log P(surname) per token; prefix sums
  const lg = new Float64Array(n + 1), ls = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const o = (offset + i) * numLabels;
    const pg = probs[o] + probs[o + 1];
    const ps = probs[o + 2] + probs[o + 3];
    lg[i + 1] = lg[i] + Math.log(Math.max(pg, EPS));
    ls[i + 1] = ls[i] + Math.log(Math.max(ps, EPS));
  }
  const capitals = hasCapital(words);
  const particle = words.map((w, i) => {
    const o = (offset + i) * numLabels;
    return bindingParticle(w, capitals, probs[o + 2], probs[o] + probs[o + 1]);
  });
  const conn = words.map(isConnector);
  const { firstNonInitial, lastNonInitial } = initialBounds(words);
  const doubled = doubledSyllableRuledOut(words, isSyllable);
  const raw: { order: NameOrder; split: number; lp: number; valid: boolean }[] = [];
  for (let k = 1; k < n; k++) {
    // given-first: [0,k) given, [k,n) surname
    raw.push({
      order: "given-first",
      split: k,
      lp: lg[k] + (ls[n] - ls[k]),
      valid: !(k >= 2 && particle[k - 1] && !conn[k - 1]) && !conn[k] && k <= lastNonInitial &&
        !doubled?.[k - 1],
    });
  }
  for (let k = 1; k < n; k++) {
    // surname-first: [0,k) surname, [k,n) given
    raw.push({
      order: "surname-first",
      split: k,
      lp: ls[k] + (lg[n] - lg[k]),
      valid: !(k >= 2 && particle[k - 1]) && k > firstNonInitial &&
        !doubled?.[n - 2 + k],
    });
  }
  let cands = raw.filter((r) => r.valid);
  if (cands.length === 0) cands = raw;
  let m = -Infinity;
  for (const r of raw) if (r.lp > m) m = r.lp;
  let z = 0;
  for (const r of cands) z += Math.exp(r.lp - m);
  const all = new Map<string, number>();
  // invalid readings get their share relative to the valid mass (for constraints)
  for (const r of raw) all.set(`${r.order}:${r.split}`, Math.min(1, Math.exp(r.lp - m) / z));
  const readings = cands.map((r) => ({
    order: r.order,
    split: r.split,
    p: Math.exp(r.lp - m) / z,
  }));
  // stable: given-first before surname-first, smaller split first on ties
  readings.sort((a, b) => b.p - a.p);
  return { readings, all };
}

// Reused between calls (decoding is synchronous): prefix sums and particle flags per word.
let LG = new Float64Array(16), LS = new Float64Array(16);
let PART = new Uint8Array(16), CONN = new Uint8Array(16), VALID = new Uint8Array(32);
let EXPS = new Float64Array(32);

/** The reading of one name (or the constrained reading's probability). */
export function decodeName(
  words: readonly string[],
  probs: Float32Array,
  offset: number,
  numLabels: number,
  constraint?: ReadingConstraint,
  temperature = 1,
  isSyllable?: SyllableTest,
): NameReading {
  // The same readings and numbers as `scoreReadings`, without building them: readings are
  // visited in its order (given-first splits 1…n-1, then surname-first), and the first of equal
  // scores wins, as its stable sort does.
  const n = words.length;
  if (LG.length <= n) {
    LG = new Float64Array(2 * n + 2);
    LS = new Float64Array(2 * n + 2);
    PART = new Uint8Array(2 * n + 2);
    CONN = new Uint8Array(2 * n + 2);
    VALID = new Uint8Array(4 * n + 4);
    EXPS = new Float64Array(4 * n + 4);
  }
  const lg = LG, ls = LS, part = PART, conn = CONN, valid = VALID;
  const capitals = hasCapital(words);
  for (let i = 0; i < n; i++) {
    const o = (offset + i) * numLabels;
    const givenMass = probs[o] + probs[o + 1];
    lg[i + 1] = lg[i] + Math.log(Math.max(givenMass, EPS));
    ls[i + 1] = ls[i] + Math.log(Math.max(probs[o + 2] + probs[o + 3], EPS));
    part[i] = i >= 1 && i < n - 1 && bindingParticle(words[i], capitals, probs[o + 2], givenMass)
      ? 1
      : 0;
    conn[i] = isConnector(words[i]) ? 1 : 0;
  }
  const { firstNonInitial, lastNonInitial } = initialBounds(words);
  const doubled = doubledSyllableRuledOut(words, isSyllable);
  // reading r: 0…n-2 given-first with split r+1, n-1…2n-3 surname-first with split r-n+2
  const R = 2 * (n - 1);
  let anyValid = false;
  for (let r = 0; r < R; r++) {
    const gf = r < n - 1;
    const k = gf ? r + 1 : r - n + 2;
    const ok = (gf
      ? !(part[k - 1] && !conn[k - 1]) && !conn[k] && k <= lastNonInitial
      : !part[k - 1] && k > firstNonInitial) && !doubled?.[r];
    valid[r] = ok ? 1 : 0;
    if (ok) {
      anyValid = true;
    }
  }
  let m = -Infinity;
  for (let r = 0; r < R; r++) {
    const lp = readingLp(r, n, lg, ls);
    if (lp > m) m = lp;
  }
  // calibration: every reading's log-probability divided by the temperature (1: none)
  const inv = 1 / temperature;
  const exps = EXPS;
  let z = 0;
  for (let r = 0; r < R; r++) {
    exps[r] = Math.exp((readingLp(r, n, lg, ls) - m) * inv);
    if (!anyValid || valid[r] === 1) z += exps[r];
  }
  // compared on the normalised probability, as the sort in `scoreReadings` does
  let best = -1, bestP = -1, massG = 0, massS = 0;
  for (let r = 0; r < R; r++) {
    if (anyValid && valid[r] === 0) continue;
    const p = exps[r] / z;
    if (p > bestP) {
      bestP = p;
      best = r;
    }
    // the mass of each order: every valid reading in it
    if (r < n - 1) massG += p;
    else massS += p;
  }
  if (constraint) {
    const gf = constraint.order === "given-first";
    const r = gf ? constraint.split - 1 : n - 2 + constraint.split;
    return {
      order: constraint.order,
      split: constraint.split,
      confidence: Math.min(1, exps[r] / z),
      bothOrders: (gf ? massS : massG) >= BOTH_ORDERS_CUT,
    };
  }
  const gf = best < n - 1;
  return {
    order: gf ? "given-first" : "surname-first",
    split: gf ? best + 1 : best - n + 2,
    confidence: bestP,
    bothOrders: (gf ? massS : massG) >= BOTH_ORDERS_CUT,
  };
}

function readingLp(r: number, n: number, lg: Float64Array, ls: Float64Array): number {
  if (r < n - 1) {
    const k = r + 1;
    return lg[k] + (ls[n] - ls[k]);
  }
  const k = r - n + 2;
  return ls[k] + (lg[n] - lg[k]);
}
