/**
 * Composes labelled full names per origin and order from the source lists, with a held-out
 * split BY NAME: every open-class name (given names, surnames) is hashed into train (90%) or
 * held-out (10%) before any full name is composed. Training names use train names only; each
 * held-out full name contains at least one held-out name. Closed classes (particles, the usual
 * CJK/Vietnamese surnames, Vietnamese middle names) are never held out.
 */
import { translate as hanjaToHangul } from "hanja/lib/translate.js";
import { fold } from "../text.ts";
import { fnv, Rng } from "./prng.ts";
import {
  AR_FAMILY,
  DE_GIVEN_EXTRA,
  FA_COMPOUND_FIRST,
  FA_COMPOUND_SECOND,
  FA_GIVEN_FEMALE,
  FA_GIVEN_MALE,
  FA_JOINED_SECOND,
  FA_PLACE_SURNAMES,
  FA_SAYYID_FEMALE,
  FA_SAYYID_MALE,
  FA_SURNAME_TAILS,
  FA_SURNAMES,
  GA_GIVEN_FEMALE,
  GA_GIVEN_MALE,
  GA_STEMS_MAC,
  GA_STEMS_O,
  HE_LATIN_GIVEN,
  HE_LATIN_SURNAMES,
  irishSurname,
  JA_SYLLABLES,
  KO_SURNAMES,
  PARTICLES_BY_ORIGIN,
  PT_SUFFIX,
  VI_MIDDLES,
  VI_SURNAMES,
  ZH_COMPOUND_SURNAMES,
  ZH_SOUTH_GIVEN,
  ZH_SOUTH_SURNAMES,
  ZH_SURNAMES,
} from "./lists.ts";
import {
  CYRILLIC_WESTERN_GIVEN_FEMALE,
  CYRILLIC_WESTERN_GIVEN_MALE,
  CYRILLIC_WESTERN_SURNAMES,
  words as listWords,
} from "./cyrillic_western.ts";
import { transcribeEnglish, transcribeGerman } from "./cyrillic_transcribe.ts";
import {
  cap,
  hangulSyllable,
  ipadicGivenNameKanji,
  pinyinSurname,
  pinyinSyllables,
  type Sources,
} from "./sources.ts";

export const LABELS = ["GIVEN", "MIDDLE", "PARTICLE", "SURNAME"] as const;
export const L_GIVEN = 0, L_MIDDLE = 1, L_PARTICLE = 2, L_SURNAME = 3;

export interface Example {
  words: string[];
  labels: number[];
  /** Origin key used for the per-slice report. */
  origin: string;
  order: "given-first" | "surname-first";
  /** Extra slice flags: caps, lower, particle, compound, initial, middle, char-split, unseen2. */
  flags: string[];
}

export type Split = "train" | "test";

/** A weighted list split by name into train and held-out parts. */
export class Pool {
  readonly train: string[];
  readonly test: string[];
  readonly #trainCum: Float64Array;
  readonly #allCum: Float64Array;
  readonly all: string[];
  readonly #testSet: Set<string>;

  constructor(items: string[], opts: { zipf?: number; closed?: boolean; fold?: number } = {}) {
    const seen = new Set<string>();
    const list = items.filter((x) => {
      const k = x.trim();
      if (!k || seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    this.all = list;
    const w = list.map((_, i) => (opts.zipf ? 1 / Math.pow(i + 3, opts.zipf) : 1));
    this.#testSet = new Set(
      opts.closed ? [] : list.filter((x) => fnv(`split:${fold(x)}`) % 10 === (opts.fold ?? 0)),
    );
    this.train = list.filter((x) => !this.#testSet.has(x));
    this.test = list.filter((x) => this.#testSet.has(x));
    const cum = (xs: string[]) => {
      const c = new Float64Array(xs.length);
      let s = 0;
      const idx = new Map(list.map((x, i) => [x, i]));
      xs.forEach((x, i) => {
        s += w[idx.get(x)!];
        c[i] = s;
      });
      return c;
    };
    this.#trainCum = cum(this.train);
    this.#allCum = cum(list);
  }

  isHeldOut(x: string): boolean {
    return this.#testSet.has(x);
  }

  #draw(xs: string[], cum: Float64Array, rng: Rng): string {
    const r = rng.next() * cum[cum.length - 1];
    let lo = 0, hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return xs[lo];
  }

  /** Draws a name: train split only for training, any name (or a held-out one) for testing. */
  draw(rng: Rng, split: Split, forceHeldOut = false): string {
    if (split === "train" || this.all.length === 0) {
      return this.#draw(this.train, this.#trainCum, rng);
    }
    if (forceHeldOut && this.test.length > 0) return rng.pick(this.test);
    return this.#draw(this.all, this.#allCum, rng);
  }
}

const RU_LAT: Record<string, string> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "yo",
  ж: "zh",
  з: "z",
  и: "i",
  й: "y",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya",
  і: "i",
  ї: "yi",
  є: "ye",
  ґ: "g",
};
export function translitRu(s: string): string {
  let out = "";
  for (const ch of s) {
    const lower = ch.toLowerCase();
    const t = RU_LAT[lower];
    if (t === undefined) out += ch;
    else out += ch !== lower ? cap(t) : t;
  }
  return out;
}

/** The Windows-1252 characters of bytes 0x80–0x9F (the rest read as Latin-1). */
const CP1252 =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

/** A word's UTF-8 bytes read as Windows-1252 ("André" → "AndrÃ©"). */
export function mojibake(s: string): string {
  let out = "";
  for (const b of new TextEncoder().encode(s)) {
    out += b >= 0x80 && b < 0xa0 ? CP1252[b - 0x80] : String.fromCharCode(b);
  }
  return out;
}

function stripMarks(s: string): string {
  return s.normalize("NFD").replace(/\p{M}/gu, "").replace(/đ/g, "d").replace(/Đ/g, "D")
    .normalize("NFC");
}

/**
 * The lexicon's spellings of a romanised Japanese name: as the source writes it (wāpuro, "Satou",
 * "Kenichirou"), with long vowels written short as English text does ("Sato", "Kenichiro"; macrons
 * fold to the same key), long o as "oh" as passports allow ("Satoh", "Ohsumi"), and each with
 * traditional Hepburn's m before b, m and p ("Sampei", "Homma").
 */
function romajiSpellings(s: string): string[] {
  const short = romajiShort(s);
  const hepburnM = (x: string) => x.replace(/n(?=[bmp])/g, "m");
  return [...new Set([s, short, romajiOh(s), hepburnM(s), hepburnM(short)])];
}

/** Long vowels written short, as most English text does: Satou → Sato, Oosumi → Osumi. */
const romajiShort = (s: string) => s.replace(LONG_VOWEL, (m) => m[0]);
/** Long o written "oh", as Japanese passports allow: Satou → Satoh, Oosumi → Ohsumi. */
const romajiOh = (s: string) => s.replace(/([oO])[ou](?=[^aeiou]|$)/g, "$1h");
/** Long vowels with a macron: Satou → Satō, Oota → Ōta. */
const romajiMacron = (s: string) => s.replace(LONG_VOWEL, (m) => MACRON[m[0]]);
/** A long vowel as wāpuro romaji writes it: ou, uu, and oo before a consonant; either case. */
const LONG_VOWEL = /[oO]u|[uU]u|[oO]o(?=[^aeiou]|$)/g;
const MACRON: Record<string, string> = { o: "ō", O: "Ō", u: "ū", U: "Ū" };

/** Japanese romaji spelling variants: Satou → Sato / Satou / Satō / Satoh. */
function romajiVariant(s: string, rng: Rng): string {
  const r = rng.next();
  if (r < 0.55) return romajiShort(s);
  if (r < 0.8) return s;
  if (r < 0.9) return romajiMacron(s);
  const oh = romajiOh(s);
  return oh === s ? romajiShort(s) : oh;
}

/**
 * The usual non-RR spellings of one Revised-Romanisation given-name syllable, as Korean names
 * are commonly written in English (McCune–Reischauer-like and passport habits): seok → suk,
 * hyeon → hyun, yeong → young, gyeong → kyung, su → soo, yun → yoon, jun → joon, hui → hee,
 * si → shi, g/b/d/j → k/p/t/ch at the start.
 */
export function koSpellings(syl: string): string[] {
  const out = new Set<string>();
  const add = (x: string) => {
    if (x && x !== syl) out.add(x);
  };
  if (syl.startsWith("gyeo")) add("kyu" + syl.slice(4));
  if (syl.includes("yeong")) add(syl.replace("yeong", "young"));
  if (syl.includes("eo")) add(syl.replace("eo", "u"));
  if (syl.includes("eo")) add(syl.replace("eo", "o"));
  if (syl.endsWith("u")) add(syl.replace(/u$/, "oo"));
  if (syl.endsWith("un")) add(syl.replace(/un$/, "oon"));
  if (syl === "u") add("woo");
  if (syl === "i") add("yi");
  if (syl.endsWith("ui")) add(syl.replace(/ui$/, "ee"));
  if (syl.startsWith("si")) add("shi" + syl.slice(2));
  if (syl.startsWith("g")) add("k" + syl.slice(1));
  if (syl.startsWith("j")) add("ch" + syl.slice(1));
  if (syl.startsWith("b")) add("p" + syl.slice(1));
  if (syl.startsWith("d")) add("t" + syl.slice(1));
  if (syl.includes("ae")) add(syl.replace("ae", "ay"));
  return [...out];
}

/** Korean romanisation variants of one RR syllable (RR itself 60 % of the time). */
function koVariant(syl: string, rng: Rng): string {
  if (!rng.chance(0.4)) return syl;
  const vs = koSpellings(syl);
  return vs.length ? rng.pick(vs) : syl;
}

/** Words that sit inside South Asian given names ("Gopal Rao", "Anil Kumar", "Harpreet Singh"). */
const IN_MIDDLE = [
  "Kumar",
  "Kumar",
  "Kumar",
  "Rao",
  "Rao",
  "Singh",
  "Singh",
  "Lal",
  "Prasad",
  "Chandra",
  "Nath",
  "Murthy",
  "Reddy",
  "Babu",
  "Devi",
  "Kaur",
  "Mohan",
  "Prakash",
  "Krishna",
  "Raj",
  "Ram",
  "Khan",
  "Ali",
  "Ahmed",
];

interface Word {
  w: string;
  role: "g" | "s" | "p";
}

/** Splits a multi-word list entry ("van der Berg") into words with particle roles. */
function surnameWords(s: string, role: "s" | "g" = "s"): Word[] {
  const parts = s.split(/\s+/).filter(Boolean);
  return parts.map((w, i) => {
    const isP = i < parts.length - 1 &&
      /^(van|von|der|den|de|du|da|di|del|della|la|le|dos|das|do|ter|ten|zu|op|'t|t)$/i
        .test(w);
    return { w, role: role === "s" && isP ? "p" : role };
  });
}

export interface Composer {
  compose(rng: Rng, split: Split): Example;
  /** Syllable inventories (zh pinyin, ko romanisation, ja romaji) for the featurizer. */
  syllables: Record<string, string[]>;
  /** Open-class lexicon entries by origin and role, train split only. */
  lexiconEntries: { word: string; tag: string }[];
  /**
   * The same for the held-out split's names: kept out of training and of the held-out
   * measurement, and shipped, so that the service knows every name of the sources.
   */
  heldOutLexiconEntries: { word: string; tag: string }[];
  /**
   * Tags of lists the lexicon holds whole (Hungarian given names, an official list): training never
   * hides their words, so an unknown word beside one is taught as what it mostly is, the other role.
   */
  neverHiddenTags: string[];
}

/**
 * `heldOutFold` (0–9, default 0) picks which tenth of the names (by hash) is held out: the shipped
 * model holds out fold 0; other folds give k-fold figures.
 */
export function buildComposer(src: Sources, heldOutFold = 0): Composer {
  const P = (xs: string[], opts?: { zipf?: number; closed?: boolean }) =>
    new Pool(xs, { ...opts, fold: heldOutFold });
  const western = [
    "en",
    "de",
    "fr",
    "it",
    "nl",
    "es",
    "pt",
    "hu",
    "slav",
    "nordic",
    "tr",
    "ro",
    "af",
    "id",
    "in",
    "elLatin",
  ];
  const pools: Record<string, { given: Pool; surname: Pool; givenF?: Pool; surnameF?: Pool }> = {};
  for (const o of western) {
    const l = src[o];
    pools[o] = {
      // English (census) and Hungarian lists are in frequency order; Hungarian given names come
      // from an official list, closed like the ranked CJK surnames (never held out)
      given: P(o === "de" ? [...l.given, ...DE_GIVEN_EXTRA] : l.given, {
        zipf: o === "en" || o === "hu" ? 0.9 : 0,
        closed: o === "hu",
      }),
      surname: P(l.surname, { zipf: o === "en" || o === "hu" ? 0.8 : 0 }),
      givenF: l.givenFemale ? P(l.givenFemale) : undefined,
      surnameF: l.surnameFemale ? P(l.surnameFemale) : undefined,
    };
  }
  for (const o of ["el", "ar", "arNative", "he", "other", "jaHan", "ja", "koHangul", "zhHan"]) {
    pools[o] = {
      given: P(src[o].given),
      // Japanese surnames are in frequency order (gimei's first): Satou, Suzuki and Itou are
      // mostly surnames though IPAdic also lists them as given-name readings
      surname: P(src[o].surname, {
        zipf: o === "ar" ? 0.5 : o === "ja" || o === "jaHan" ? 0.9 : 0,
      }),
    };
  }
  // Western names written in Cyrillic letters, and Israeli names in Latin letters: lists of ours
  pools.cyrWest = {
    given: P(listWords(`${CYRILLIC_WESTERN_GIVEN_MALE} ${CYRILLIC_WESTERN_GIVEN_FEMALE}`)),
    surname: P(listWords(CYRILLIC_WESTERN_SURNAMES)),
  };
  pools.heLatin = { given: P(HE_LATIN_GIVEN), surname: P(HE_LATIN_SURNAMES) };
  // and many more spelled in Cyrillic by rule from the English and German lists (train split
  // only; kept out of the lexicon, so that the network learns their letters, not their entries)
  const spelled = (xs: string[], f: (w: string) => string | null) =>
    xs.map(f).filter((x): x is string => x !== null);
  pools.cyrWestRule = {
    given: P([
      ...spelled(pools.en.given.train.slice(0, 800), transcribeEnglish),
      ...spelled(pools.en.givenF?.train.slice(0, 800) ?? [], transcribeEnglish),
      ...spelled(pools.de.given.train, transcribeGerman),
    ]),
    surname: P([
      ...spelled(pools.en.surname.train.slice(0, 3000), transcribeEnglish),
      ...spelled(pools.de.surname.train, transcribeGerman),
    ]),
  };
  const ru = src.ru;
  const ruPools = {
    given: P(ru.given),
    givenF: P(ru.givenFemale!),
    surname: P(ru.surname),
    surnameF: P(ru.surnameFemale!),
    middle: P(ru.middle!, { closed: true }),
    middleF: P(ru.middleFemale!, { closed: true }),
  };
  // Chinese romanised: surnames closed; given names built from characters of real given names
  const zhChars: string[] = [];
  for (const g of src.zhHan.given) for (const ch of g) zhChars.push(ch);
  const zhSyl = new Set<string>();
  const zhGivenRom: string[] = [];
  const charPy = new Map<string, string>();
  for (const ch of new Set(zhChars)) {
    const py = pinyinSyllables(ch)[0];
    if (py && /^[a-zü]+$/.test(py)) {
      charPy.set(ch, py.replace("ü", "v"));
      zhSyl.add(py.replace("ü", "v"));
    }
  }
  const zhSurRom: string[] = [];
  for (const s of src.zhHan.surname) {
    const py = pinyinSurname(s);
    if (/^[a-zv]+$/.test(py)) zhSurRom.push(cap(py));
    for (const ch of s) {
      const p = pinyinSyllables(ch)[0];
      if (p && /^[a-zü]+$/.test(p)) zhSyl.add(p.replace("ü", "v"));
    }
  }
  for (const [s, vs] of ZH_SURNAMES) for (const v of [s, ...vs]) zhSyl.add(v.toLowerCase());
  const gen = new Rng(7);
  const charList = zhChars.filter((c) => charPy.has(c));
  for (let i = 0; i < 6000; i++) {
    const one = gen.chance(0.3);
    const a = charPy.get(gen.pick(charList))!;
    // a few given names repeat one character (叠字: 冰冰 Bingbing, 婷婷 Tingting)
    const b = gen.chance(0.03) ? a : charPy.get(gen.pick(charList))!;
    zhGivenRom.push(one ? a : `${a}|${b}`);
  }
  // also real given names' full readings
  for (const g of src.zhHan.given) {
    const py = [...g].map((c) => charPy.get(c)).filter(Boolean);
    if (py.length === [...g].length) zhGivenRom.push(py.join("|"));
  }
  const zhGiven = P(zhGivenRom);
  const zhSurRank = P(ZH_SURNAMES.map((x) => x[0]), { zipf: 1.0, closed: true });
  const zhVariants = new Map(ZH_SURNAMES.map(([s, vs]) => [s, vs]));
  const zhRare = P(zhSurRom.filter((x) => !zhVariants.has(x)));
  // Korean
  const koSyl = new Set<string>();
  const koGivenRom: string[] = [];
  const addKoGiven = (hangul: string) => {
    const syls = [...hangul].map(hangulSyllable);
    syls.forEach((x) => {
      koSyl.add(x);
      for (const v of koSpellings(x)) koSyl.add(v);
    });
    koGivenRom.push(syls.join("|"));
  };
  for (const g of src.koHangul.given) addKoGiven(g);
  // faker's 540 Korean given names hold 106 syllables and leave out common ones (Gwan, Gwang): as
  // many names again, each two Sino-Korean readings (the hanja table, with the initial-sound rule)
  // of characters drawn by how often real given names use them: Chinese given names and IPAdic's
  // Japanese ones, written with the same hanja Korean given names are
  const nameHanja = [...charList, ...ipadicGivenNameKanji()];
  const koGen = new Rng(11);
  const fakerKoGiven = koGivenRom.length;
  for (let i = 0; i < fakerKoGiven; i++) {
    const hangul = hanjaToHangul(koGen.pick(nameHanja) + koGen.pick(nameHanja), "SUBSTITUTION");
    if (/^\p{Script=Hangul}{2}$/u.test(hangul)) addKoGiven(hangul);
  }
  for (const [, vs] of KO_SURNAMES) for (const v of vs) koSyl.add(v.toLowerCase());
  const koGiven = P(koGivenRom);
  const koGivenHangul = P(src.koHangul.given);
  const koSur = P(KO_SURNAMES.map((x) => x[0]), { zipf: 1.1, closed: true });
  const koSpell = new Map(KO_SURNAMES);
  // Vietnamese
  const viSur = P(VI_SURNAMES, { zipf: 1.2, closed: true });
  const viMid = P(VI_MIDDLES, { zipf: 0.7, closed: true });
  const viGiven = P(src.vi.given.map((g) => g.split(" ").pop()!));
  // Portuguese / Spanish particles etc.
  const particle = (o: string, rng: Rng): string => {
    const list = PARTICLES_BY_ORIGIN[o];
    const total = list.reduce((a, b) => a + b[1], 0);
    let r = rng.next() * total;
    for (const [p, w] of list) if ((r -= w) <= 0) return p;
    return list[0][0];
  };
  const initialOf = (name: string, rng: Rng): string => {
    const c = [...name.replace(/[^\p{L}]/gu, "")][0] ?? "J";
    const up = c.toUpperCase();
    return rng.chance(0.55) ? `${up}.` : up;
  };

  // ------------------------------------------------------------------ templates
  type Built = {
    given: Word[];
    surname: Word[];
    order: "given-first" | "surname-first";
    flags: string[];
  };

  function westernGiven(o: string, rng: Rng, split: Split, force: boolean, female: boolean) {
    const pool = female && pools[o].givenF ? pools[o].givenF! : pools[o].given;
    const flags: string[] = [];
    const g: Word[] = [];
    const first = pool.draw(rng, split, force);
    const r = rng.next();
    if (r < 0.015) {
      // initials written together without periods: "RJ", "MSA"
      flags.push("initial");
      const n = rng.chance(0.75) ? 2 : 3;
      let w = "";
      for (let i = 0; i < n; i++) w += initialOf(pool.draw(rng, split), rng).replace(".", "");
      g.push({ w, role: "g" });
      return { g, flags };
    }
    if (r < 0.075) {
      // an initial, then a middle name used as the call name: "J. Maurice", "F. Sherwood"
      flags.push("initial", "middle");
      g.push({ w: initialOf(first, rng), role: "g" });
      if (rng.chance(0.2)) g.push({ w: initialOf(pool.draw(rng, split), rng), role: "g" });
      g.push({ w: pool.draw(rng, split, force), role: "g" });
      return { g, flags };
    }
    if (r < 0.145) {
      // initials only: "J. R." / "J.R." / "JR"-free
      flags.push("initial");
      const a = initialOf(first, rng);
      const b = initialOf(pool.draw(rng, split), rng);
      const s = rng.next();
      if (s < 0.4) g.push({ w: a, role: "g" });
      else if (s < 0.8) g.push({ w: a, role: "g" }, { w: b, role: "g" });
      else g.push({ w: `${a.replace(".", "")}.${b.replace(".", "")}.`, role: "g" });
      return { g, flags };
    }
    if (rng.chance(o === "fr" ? 0.1 : 0.025)) {
      g.push({ w: `${first}-${pool.draw(rng, split)}`, role: "g" });
      flags.push("hyphen");
    } else g.push({ w: first, role: "g" });
    const m = rng.next();
    const midName = () => {
      const pSur = o === "en" ? 0.12 : o === "es" || o === "pt" ? 0 : 0.03;
      if (rng.chance(pSur)) return pools[o].surname.draw(rng, split).split(" ").pop()!;
      // South Asian given names often carry Kumar, Rao, Singh, Lal… before the family name
      if (o === "in" && rng.chance(0.5)) return rng.pick(IN_MIDDLE);
      return pool.draw(rng, split);
    };
    if (m < 0.24) {
      g.push({ w: initialOf(pool.draw(rng, split), rng), role: "g" });
      flags.push("initial");
    } else if (m < 0.46) {
      g.push({ w: midName(), role: "g" });
      flags.push("middle");
    } else if (m < 0.51) {
      g.push({ w: midName(), role: "g" }, { w: midName(), role: "g" });
      flags.push("middle");
    } else if (m < 0.56) {
      g.push({ w: initialOf(pool.draw(rng, split), rng), role: "g" });
      g.push({ w: initialOf(pool.draw(rng, split), rng), role: "g" });
      flags.push("initial");
    } else if (m < 0.59) {
      g.push({ w: midName(), role: "g" }, { w: initialOf(pool.draw(rng, split), rng), role: "g" });
      flags.push("initial");
    } else if (m < 0.62) {
      // "John A. Kenneth Doe"
      g.push({ w: initialOf(pool.draw(rng, split), rng), role: "g" }, { w: midName(), role: "g" });
      flags.push("initial", "middle");
    }
    return { g, flags };
  }

  function westernSurname(o: string, rng: Rng, split: Split, force: boolean, female: boolean) {
    const pool = female && pools[o].surnameF ? pools[o].surnameF! : pools[o].surname;
    const flags: string[] = [];
    let s: Word[] = surnameWords(pool.draw(rng, split, force));
    const r = rng.next();
    const pParticle =
      ({ nl: 0.25, de: 0.07, fr: 0.1, it: 0.08, es: 0.08, pt: 0.3, en: 0.02 } as Record<
        string,
        number
      >)[o] ?? 0;
    const pDouble = ({ es: 0.5, pt: 0.4, fr: 0.03, en: 0.012 } as Record<string, number>)[o] ??
      0.008;
    const pHyphen =
      ({ en: 0.04, de: 0.06, fr: 0.05, nordic: 0.04, slav: 0.03 } as Record<string, number>)[o] ??
        0.02;
    if (s.some((w) => w.role === "p")) flags.push("particle");
    let firstLen = 0;
    if (r < pDouble) {
      firstLen = s.length;
      const second = surnameWords(pool.draw(rng, split));
      if (o === "es" && rng.chance(0.07)) s.push({ w: "y", role: "p" });
      else if ((o === "es" || o === "fr" || o === "it") && rng.chance(0.1)) {
        for (const p of particle(o, rng).split(" ")) s.push({ w: p, role: "p" });
      } else if (o === "pt" && rng.chance(0.25)) {
        for (const p of particle("pt", rng).split(" ")) s.push({ w: p, role: "p" });
      }
      s.push(...second);
      flags.push("compound");
    } else if (r < pDouble + pHyphen && s.length === 1) {
      s = [{ w: `${s[0].w}-${pool.draw(rng, split).split(" ").pop()}`, role: "s" }];
      flags.push("hyphen");
    }
    if (PARTICLES_BY_ORIGIN[o] && rng.chance(pParticle) && !s.some((w) => w.role === "p")) {
      const p = particle(o, rng);
      if (p.endsWith("'")) {
        s[0] = { w: p + s[0].w, role: "s" };
      } else {
        const upper = rng.chance(o === "en" || o === "nl" ? 0.35 : 0.2);
        const words = p.split(" ").map((x, i) => ({
          w: upper && i === 0 ? cap(x) : x,
          role: "p" as const,
        }));
        s = [...words, ...s];
        flags.push("particle");
      }
    }
    if (o === "pt" && rng.chance(0.05)) s.push({ w: rng.pick(PT_SUFFIX), role: "s" });
    return { s, flags, firstLen };
  }

  function composeWestern(o: string, rng: Rng, split: Split): Built {
    const female = rng.chance(0.5);
    // a held-out name holds a held-out given name or surname (Hungarian given names: never held out)
    const forceG = split === "test" && o !== "hu" && rng.chance(0.5);
    const { g, flags: gf } = westernGiven(o, rng, split, forceG, female);
    const w = westernSurname(o, rng, split, split === "test" && !forceG, female);
    let s = w.s;
    let order: Built["order"] = "given-first";
    const flags = [...gf, ...w.flags];
    // Portuguese names are indexed by the LAST surname: the mother's surname before it is read as
    // part of the given block ("Maria Pires | Martins", "Ima Célia Guimarães | Vieira"), the
    // connector or particle going with the last surname ("Ana Costa | da Silva")
    if (
      o === "pt" && w.firstLen > 0 && rng.chance(0.75) &&
      s.slice(0, w.firstLen).every((x) => x.role === "s")
    ) {
      for (const x of s.slice(0, w.firstLen)) g.push({ w: x.w, role: "g" });
      s = s.slice(w.firstLen);
      flags.splice(flags.indexOf("compound"), 1, "middle");
    }
    if (o === "hu" && rng.chance(0.6)) order = "surname-first";
    else if (rng.chance(0.025)) {
      order = "surname-first";
      flags.push("caps-surname");
    }
    if (o === "es" && rng.chance(0.12) && g.length === 1) {
      g.push({ w: pools.es.given.draw(rng, split), role: "g" });
      flags.push("middle");
    }
    return { given: g, surname: s, order, flags };
  }

  function composeMixed(rng: Rng, split: Split): Built {
    // An English/European given name with a surname from anywhere (given-first).
    const go = rng.pick(["en", "en", "en", "fr", "de", "es", "it", "nl"]);
    const so = rng.pick([
      "zh",
      "zh",
      "zh",
      "ko",
      "ko",
      "vi",
      "vi",
      "ja",
      "in",
      "ar",
      "hu",
      "es",
      "ru",
      "nl",
    ]);
    const forceG = split === "test" && rng.chance(0.5);
    const { g, flags } = westernGiven(go, rng, split, forceG, rng.chance(0.5));
    let s: Word[];
    if (so === "zh") s = [{ w: zhSurname(rng, split).join(" "), role: "s" }];
    else if (so === "ko") s = [{ w: koSurname(rng), role: "s" }];
    else if (so === "vi") s = [{ w: stripMarks(viSur.draw(rng, split)), role: "s" }];
    else if (so === "ja") {
      s = [{ w: romajiVariant(pools.ja.surname.draw(rng, split), rng), role: "s" }];
    } else if (so === "ru") s = [{ w: translitRu(ruPools.surname.draw(rng, split)), role: "s" }];
    else if (so === "ar") s = [{ w: pools.ar.surname.draw(rng, split), role: "s" }];
    // Dutch surnames in American names, particle often capitalised: "Martin Van Buren"
    else if (so === "nl") s = westernSurname("nl", rng, split, false, false).s;
    else s = surnameWords(pools[so].surname.draw(rng, split, split === "test" && !forceG));
    if (s[0].w.includes(" ")) s = s[0].w.split(" ").map((w) => ({ w, role: "s" as const }));
    // sometimes an Asian given name after the western one ("Tony Zhiqiang Wang")
    if (so === "zh" && rng.chance(0.15)) g.push({ w: zhGivenForm(rng, split)[0], role: "g" });
    return { given: g, surname: s, order: "given-first", flags: [...flags, "mixed"] };
  }

  function zhSurname(rng: Rng, split: Split): string[] {
    const r = rng.next();
    if (r < 0.03) {
      const c = rng.pick(ZH_COMPOUND_SURNAMES);
      const m = c.match(
        /^([A-Z][a-z]*?(?:ang|ong|eng|an|en|ou|ao|ai|ei|ia|iu|uo|ua|u|i|e|a|o))([a-z]+)$/,
      );
      const [a, b] = m ? [m[1], m[2]] : [c, ""];
      const f = rng.next();
      if (!b || f < 0.55) return [c];
      if (f < 0.8) return [`${a}-${rng.chance(0.6) ? cap(b) : b}`];
      return [a, cap(b)];
    }
    if (r < 0.055) return [zhRare.draw(rng, split)];
    const s = zhSurRank.draw(rng, split);
    if (rng.chance(0.12)) return [rng.pick(zhVariants.get(s)!)];
    return [s];
  }
  function zhGivenForm(rng: Rng, split: Split, force = false): string[] {
    const syl = zhGiven.draw(rng, split, force).split("|");
    if (syl.length === 1) return [cap(syl[0])];
    const f = rng.next();
    if (f < 0.62) return [cap(syl.join(""))];
    if (f < 0.8) return [`${cap(syl[0])}-${rng.chance(0.5) ? cap(syl[1]) : syl[1]}`];
    return syl.map(cap);
  }
  function composeZh(rng: Rng, split: Split): Built {
    const s = zhSurname(rng, split);
    const g = zhGivenForm(rng, split, split === "test");
    const flags: string[] = [];
    if (
      s.length > 1 ||
      ZH_COMPOUND_SURNAMES.some((c) => s[0].replace("-", "").toLowerCase() === c.toLowerCase())
    ) {
      flags.push("compound");
    }
    // English-language text writes romanised Chinese names given-first a little more often
    const order = rng.chance(0.44) ? "surname-first" : "given-first";
    let sw = s;
    if (rng.chance(order === "surname-first" ? 0.15 : 0.08)) {
      sw = s.map((x) => x.toUpperCase());
      flags.push("caps-surname");
    }
    return {
      given: g.map((w) => ({ w, role: "g" as const })),
      surname: sw.map((w) => ({ w, role: "s" as const })),
      order,
      flags,
    };
  }
  function koSurname(rng: Rng): string {
    const s = koSur.draw(rng, "train");
    const spells = koSpell.get(s)!;
    return rng.chance(0.7) ? spells[0] : rng.pick(spells);
  }
  function composeKo(rng: Rng, split: Split): Built {
    const syl = koGiven.draw(rng, split, split === "test").split("|").map((x) => koVariant(x, rng));
    let g: string[];
    const f = rng.next();
    if (syl.length === 1) g = [cap(syl[0])];
    else if (f < 0.27) g = [cap(syl.join(""))];
    else if (f < 0.42) g = [`${cap(syl[0])}-${syl.slice(1).join("")}`];
    else if (f < 0.52) g = [`${cap(syl[0])}-${cap(syl.slice(1).join(""))}`];
    else if (f < 0.95) g = syl.map(cap);
    else g = [syl.map(cap).join("")];
    // the spaced three-word forms ("Park Ji Hoon", "Kim Min Jun") lean surname-first
    const order = rng.chance(g.length > 1 ? 0.55 : 0.45) ? "surname-first" : "given-first";
    let s = koSurname(rng);
    const flags: string[] = [];
    if (rng.chance(0.1)) {
      s = s.toUpperCase();
      flags.push("caps-surname");
    }
    return {
      given: g.map((w) => ({ w, role: "g" as const })),
      surname: [{ w: s, role: "s" }],
      order,
      flags,
    };
  }
  function composeJa(rng: Rng, split: Split): Built {
    const forceG = split === "test" && rng.chance(0.5);
    const g = romajiVariant(pools.ja.given.draw(rng, split, forceG), rng);
    const s = romajiVariant(pools.ja.surname.draw(rng, split, split === "test" && !forceG), rng);
    const order = rng.chance(0.35) ? "surname-first" : "given-first";
    const flags: string[] = [];
    let sw = s;
    if (rng.chance(0.08)) {
      sw = s.toUpperCase();
      flags.push("caps-surname");
    }
    return { given: [{ w: g, role: "g" }], surname: [{ w: sw, role: "s" }], order, flags };
  }
  function composeVi(rng: Rng, split: Split): Built {
    const s = viSur.draw(rng, split);
    const giv: Word[] = [];
    if (rng.chance(0.75)) giv.push({ w: viMid.draw(rng, split), role: "g" });
    giv.push({ w: viGiven.draw(rng, split, split === "test"), role: "g" });
    // two-syllable given names: "Nguyen Thi Hong Nhung", "Tran Minh Chau"
    if (rng.chance(0.2)) giv.push({ w: viGiven.draw(rng, split), role: "g" });
    const order = rng.chance(0.55) ? "surname-first" : "given-first";
    const flags: string[] = giv.length > 1 ? ["middle"] : [];
    // in Western order forms ask for first / middle / last, so the middle name often follows the
    // given name: "Thanh Van Nguyen", "Linh Thi Tran"
    if (order === "given-first" && giv.length >= 2 && rng.chance(0.45)) giv.push(giv.shift()!);
    return { given: giv, surname: [{ w: s, role: "s" }], order, flags };
  }
  function composeCjkNative(rng: Rng, split: Split, kind: "zhHan" | "jaHan" | "koHangul"): Built {
    const forceG = split === "test" && rng.chance(0.5);
    const g = kind === "koHangul"
      ? koGivenHangul.draw(rng, split, forceG)
      : pools[kind].given.draw(rng, split, forceG);
    const s = kind === "koHangul"
      ? (rng.chance(0.97) ? koSur.draw(rng, "train") : pools.koHangul.surname.draw(rng, split))
      : pools[kind].surname.draw(rng, split, split === "test" && !forceG);
    const order = rng.chance(0.95) ? "surname-first" : "given-first";
    const flags: string[] = [];
    if (rng.chance(0.45)) {
      flags.push("char-split");
      return {
        given: [...g].map((w) => ({ w, role: "g" as const })),
        surname: [...s].map((w) => ({ w, role: "s" as const })),
        order,
        flags,
      };
    }
    return { given: [{ w: g, role: "g" }], surname: [{ w: s, role: "s" }], order, flags };
  }
  function composeRu(rng: Rng, split: Split, latin: boolean): Built {
    const female = rng.chance(0.5);
    const forceG = split === "test" && rng.chance(0.5);
    const g: Word[] = [{
      w: (female ? ruPools.givenF : ruPools.given).draw(rng, split, forceG),
      role: "g",
    }];
    if (rng.chance(latin ? 0.25 : 0.6)) {
      g.push({ w: (female ? ruPools.middleF : ruPools.middle).draw(rng, split), role: "g" });
    }
    const s: Word[] = [{
      w: (female ? ruPools.surnameF : ruPools.surname).draw(
        rng,
        split,
        split === "test" && !forceG,
      ),
      role: "s",
    }];
    const order = rng.chance(latin ? 0.08 : 0.3) ? "surname-first" : "given-first";
    const conv = (ws: Word[]) => latin ? ws.map((x) => ({ ...x, w: translitRu(x.w) })) : ws;
    const flags = g.length > 1 ? ["middle"] : [];
    return { given: conv(g), surname: conv(s), order, flags };
  }
  function composeSimple(o: string, rng: Rng, split: Split, pSurnameFirst: number): Built {
    const forceG = split === "test" && rng.chance(0.5);
    const g: Word[] = [{ w: pools[o].given.draw(rng, split, forceG), role: "g" }];
    if (rng.chance(0.1)) g.push({ w: pools[o].given.draw(rng, split), role: "g" });
    const s = surnameWords(pools[o].surname.draw(rng, split, split === "test" && !forceG));
    const order = rng.chance(pSurnameFirst) ? "surname-first" : "given-first";
    return {
      given: g.flatMap((x) => x.w.split(" ").map((w) => ({ w, role: "g" as const }))),
      surname: s,
      order,
      flags: [],
    };
  }
  // Irish-language names: "Aoife Ní Cheallaigh", "Seán Ó Súilleabháin", "Niamh Nic Giolla Phádraig"
  const gaGivenF = P(GA_GIVEN_FEMALE);
  const gaGivenM = P(GA_GIVEN_MALE);
  const gaStemsO = P(GA_STEMS_O);
  const gaStemsMac = P(GA_STEMS_MAC);
  function composeGa(rng: Rng, split: Split): Built {
    const female = rng.chance(0.5);
    const forceG = split === "test" && rng.chance(0.5);
    const givenPool = female ? gaGivenF : gaGivenM;
    const g: Word[] = [{ w: givenPool.draw(rng, split, forceG), role: "g" }];
    if (rng.chance(0.1)) g.push({ w: givenPool.draw(rng, split), role: "g" });
    const mac = rng.chance(0.3);
    const stem = (mac ? gaStemsMac : gaStemsO).draw(rng, split, split === "test" && !forceG);
    const particle = mac ? (female ? "Nic" : "Mac") : female ? "Ní" : "Ó";
    const s: Word[] = [
      { w: particle, role: "p" },
      ...irishSurname(particle, stem).split(" ").map((w) => ({ w, role: "s" as const })),
    ];
    return { given: g, surname: s, order: "given-first", flags: ["particle"] };
  }
  // Singapore, Malaysia and Hong Kong spellings: "Tan Boon Seng", "TAN Boon-Seng", "Boon Seng Tan"
  const zhsSurname = P(ZH_SOUTH_SURNAMES, { zipf: 1.0 });
  const zhsGiven = P(ZH_SOUTH_GIVEN);
  function composeZhSouth(rng: Rng, split: Split): Built {
    const forceG = split === "test" && rng.chance(0.5);
    const syl = [zhsGiven.draw(rng, split, forceG)];
    if (rng.chance(0.85)) syl.push(zhsGiven.draw(rng, split));
    const f = rng.next();
    let g: string[];
    if (syl.length === 1 || f < 0.55) g = syl;
    else if (f < 0.7) g = [`${syl[0]}-${syl[1]}`];
    else if (f < 0.85) g = [`${syl[0]}-${syl[1].toLowerCase()}`];
    else g = [syl[0] + syl[1].toLowerCase()];
    const order = rng.chance(0.75) ? "surname-first" : "given-first";
    const flags: string[] = [];
    if (order === "surname-first" && rng.chance(0.15)) flags.push("caps-surname");
    let given: Word[] = g.map((w) => ({ w, role: "g" }));
    if (order === "given-first" && rng.chance(0.15)) {
      // an English name before the Chinese one: "Jason Boon Seng Tan"
      given.unshift({ w: pools.en.given.draw(rng, split), role: "g" });
      flags.push("mixed");
    } else if (order === "surname-first" && rng.chance(0.1)) {
      // the English name alone after the surname, as Hong Kong lists write it: "CHAN Peter"
      given = [{ w: pools.en.given.draw(rng, split), role: "g" }];
      flags.push("mixed");
    }
    const s = zhsSurname.draw(rng, split, split === "test" && !forceG);
    return { given, surname: [{ w: s, role: "s" }], order, flags };
  }
  // Persian names in Latin letters: "Mohammad Reza Hosseini", "Seyedeh Maryam Sadeghi Nejad",
  // "Alireza Hashemi Rafsanjani", "Ali Rahimi-Moghaddam"
  const faGivenM = P(FA_GIVEN_MALE, { zipf: 0.7 });
  const faGivenF = P(FA_GIVEN_FEMALE, { zipf: 0.7 });
  const faSurname = P(FA_SURNAMES, { zipf: 0.5 });
  const faPlace = P(FA_PLACE_SURNAMES);
  function faCompoundGiven(rng: Rng): Word[] {
    const first = rng.pick(FA_COMPOUND_FIRST);
    let second = rng.pick(FA_COMPOUND_SECOND);
    while (second === first) second = rng.pick(FA_COMPOUND_SECOND);
    const f = rng.next();
    if (f < 0.5 && FA_JOINED_SECOND.has(second)) {
      return [{ w: first + second.toLowerCase(), role: "g" }];
    }
    if (f > 0.9) return [{ w: `${first}-${second}`, role: "g" }];
    return [{ w: first, role: "g" }, { w: second, role: "g" }];
  }
  function composeFa(rng: Rng, split: Split): Built {
    const female = rng.chance(0.4);
    const forceG = split === "test" && rng.chance(0.5);
    const flags: string[] = [];
    const r = rng.next();
    let g: Word[];
    if (!female && r < 0.2) g = faCompoundGiven(rng);
    else g = [{ w: (female ? faGivenF : faGivenM).draw(rng, split, forceG), role: "g" }];
    if (r >= 0.2 && r < 0.34) {
      // the Sayyid title, written as the first word of the given name
      g.unshift({ w: rng.pick(female ? FA_SAYYID_FEMALE : FA_SAYYID_MALE), role: "g" });
    }
    if (g.length > 1) flags.push("middle");
    const base = faSurname.draw(rng, split, split === "test" && !forceG);
    let s: Word[];
    const k = rng.next();
    // most surnames are one word; a tail word or a place name makes the rest a two-word surname
    if (k < 0.72) s = [{ w: base, role: "s" }];
    else if (k < 0.88) {
      // the short tails (Far, Rad, Kia…) are written joined or hyphenated, the others apart too
      const tail = rng.pick(FA_SURNAME_TAILS);
      const h = rng.next();
      if (tail.length > 4 || tail === "Pour") {
        s = h < 0.25
          ? [{ w: `${base}-${rng.chance(0.8) ? tail : tail.toLowerCase()}`, role: "s" }]
          : [{ w: base, role: "s" }, { w: tail, role: "s" }];
      } else {
        s = [{ w: h < 0.5 ? `${base}-${tail}` : base + tail.toLowerCase(), role: "s" }];
      }
    } else {
      const second = faPlace.draw(rng, split);
      s = rng.chance(0.15)
        ? [{ w: `${base}-${second}`, role: "s" }]
        : [{ w: base, role: "s" }, { w: second, role: "s" }];
    }
    if (s.length > 1) flags.push("compound");
    const order = rng.chance(0.06) ? "surname-first" : "given-first";
    if (order === "surname-first" && rng.chance(0.3)) flags.push("caps-surname");
    return { given: g, surname: s, order, flags };
  }
  function composeAr(rng: Rng, split: Split): Built {
    const forceG = split === "test" && rng.chance(0.5);
    const g: Word[] = [{ w: pools.ar.given.draw(rng, split, forceG), role: "g" }];
    const flags: string[] = [];
    if (rng.chance(0.06)) g.unshift({ w: "Abdul", role: "g" });
    if (rng.chance(0.15)) g.push({ w: pools.ar.given.draw(rng, split), role: "g" });
    const fam = pools.ar.surname.draw(rng, split, split === "test" && !forceG);
    const s: Word[] = [];
    if (rng.chance(0.12)) {
      s.push({ w: rng.pick(["bin", "ibn", "bin", "Bin", "bint"]), role: "p" });
      s.push({ w: pools.ar.given.draw(rng, split), role: "s" });
      flags.push("particle");
    }
    const art = rng.next();
    if (art < 0.3) s.push({ w: `al-${fam}`, role: "s" });
    else if (art < 0.45) s.push({ w: `Al-${fam}`, role: "s" });
    else if (art < 0.57) {
      s.push({ w: rng.pick(["Al", "al", "El"]), role: "p" }, { w: fam, role: "s" });
      flags.push("particle");
    } else if (art < 0.62) s.push({ w: `El-${fam}`, role: "s" });
    else s.push({ w: fam, role: "s" });
    return { given: g, surname: s, order: "given-first", flags };
  }

  const origins: [string, number, (rng: Rng, split: Split) => Built][] = [
    ["en", 30, (r, s) => composeWestern("en", r, s)],
    ["de", 4, (r, s) => composeWestern("de", r, s)],
    ["fr", 4, (r, s) => composeWestern("fr", r, s)],
    ["it", 3, (r, s) => composeWestern("it", r, s)],
    ["nl", 4, (r, s) => composeWestern("nl", r, s)],
    ["es", 9, (r, s) => composeWestern("es", r, s)],
    ["pt", 5, (r, s) => composeWestern("pt", r, s)],
    ["hu", 3, (r, s) => composeWestern("hu", r, s)],
    ["slav", 3, (r, s) => composeWestern("slav", r, s)],
    ["nordic", 2, (r, s) => composeWestern("nordic", r, s)],
    ["tr", 1.5, (r, s) => composeWestern("tr", r, s)],
    ["ro", 1.5, (r, s) => composeWestern("ro", r, s)],
    ["af", 1.5, (r, s) => composeWestern("af", r, s)],
    ["id", 0.8, (r, s) => composeWestern("id", r, s)],
    ["in", 3, (r, s) => composeWestern("in", r, s)],
    ["el-latin", 1, (r, s) => composeWestern("elLatin", r, s)],
    ["ga", 0.4, composeGa],
    ["mixed", 7, composeMixed],
    ["ru", 1.5, (r, s) => composeRu(r, s, false)],
    ["ru-latin", 1.5, (r, s) => composeRu(r, s, true)],
    ["el", 1, (r, s) => composeSimple("el", r, s, 0.25)],
    ["ar", 3, composeAr],
    ["fa", 2, composeFa],
    ["ar-native", 0.5, (r, s) => composeSimple("arNative", r, s, 0.1)],
    ["he", 0.3, (r, s) => composeSimple("he", r, s, 0.05)],
    ["he-latin", 0.6, (r, s) => composeSimple("heLatin", r, s, 0.05)],
    // Russian text writes a foreign name given-first ("Брайан Уилсон")
    ["cyr-west", 0.8, (r, s) => composeSimple("cyrWest", r, s, 0.03)],
    ["cyr-west-rule", 0.8, (r, s) => composeSimple("cyrWestRule", r, s, 0.03)],
    ["other", 0.5, (r, s) => composeSimple("other", r, s, 0.1)],
    ["zh", 7, composeZh],
    ["zh-south", 2, composeZhSouth],
    ["zh-han", 2, (r, s) => composeCjkNative(r, s, "zhHan")],
    ["ja", 3.5, composeJa],
    ["ja-han", 0.8, (r, s) => composeCjkNative(r, s, "jaHan")],
    ["ko", 5, composeKo],
    ["ko-hangul", 0.7, (r, s) => composeCjkNative(r, s, "koHangul")],
    ["vi", 2.5, composeVi],
  ];
  const totalW = origins.reduce((a, b) => a + b[1], 0);

  const NO_MARKS = new Set([
    "en",
    "zh",
    "zh-south",
    "ko",
    "ja",
    "in",
    "ar",
    "fa",
    "mixed",
    "he-latin",
    "cyr-west",
    "cyr-west-rule",
  ]);

  function compose(rng: Rng, split: Split): Example {
    let r = rng.next() * totalW;
    let chosen = origins[0];
    for (const o of origins) {
      if ((r -= o[1]) <= 0) {
        chosen = o;
        break;
      }
    }
    const [origin, , fn] = chosen;
    const b = fn(rng, split);
    const flags = [...b.flags];
    const given = b.given;
    let surname = b.surname;
    // the caps-surname western form: "SMITH John"
    if (flags.includes("caps-surname") && !["zh", "ko", "ja"].includes(origin)) {
      surname = surname.map((w) => ({ ...w, w: w.w.toUpperCase() }));
    }
    const words = b.order === "given-first" ? [...given, ...surname] : [...surname, ...given];
    let ws = words.map((w) => w.w);
    // noise: case, diacritics, periods
    const cr = rng.next();
    if (cr < 0.055) {
      ws = ws.map((w) => w.toUpperCase());
      flags.push("caps");
    } else if (cr < 0.115) {
      ws = ws.map((w) => w.toLowerCase());
      flags.push("lower");
    }
    const pStrip = origin === "vi" ? 0.5 : origin === "hu" ? 0.25 : NO_MARKS.has(origin) ? 0 : 0.12;
    if (rng.chance(pStrip)) ws = ws.map(stripMarks);
    else if (rng.chance(0.03) && ws.some((w) => /[\u00c0-\u024f]/.test(w))) {
      // UTF-8 read as Windows-1252 somewhere upstream: "AndrÃ©"
      ws = ws.map(mojibake);
      flags.push("mojibake");
    }
    if (rng.chance(0.01)) {
      const i = rng.int(given.length);
      const gi = b.order === "given-first" ? i : surname.length + i;
      if (!ws[gi].endsWith(".") && /^[A-Za-z]/.test(ws[gi])) ws[gi] = ws[gi] + ".";
    }
    // labels
    const gl = given.map((_, i) => (i === 0 ? L_GIVEN : L_MIDDLE));
    const sl = surname.map((w) => (w.role === "p" ? L_PARTICLE : L_SURNAME));
    const labels = b.order === "given-first" ? [...gl, ...sl] : [...sl, ...gl];
    // split into single words (list entries may hold spaces)
    const outW: string[] = [], outL: number[] = [];
    ws.forEach((w, i) => {
      const parts = w.split(/\s+/).filter(Boolean);
      parts.forEach((p, j) => {
        outW.push(p);
        let l = labels[i];
        if (l === L_GIVEN && j > 0) l = L_MIDDLE;
        if (
          l === L_SURNAME && j < parts.length - 1 &&
          /^(van|von|der|den|de|du|da|di|del|la|le)$/i.test(p)
        ) {
          l = L_PARTICLE;
        }
        outL.push(l);
      });
    });
    if (given.length + surname.length > 2 && given.length > 1) flags.push("multi-given");
    return { words: outW, labels: outL, origin, order: b.order, flags };
  }

  // lexicon entries by origin and role: the train split's, and apart the held-out split's
  const lexiconEntries: { word: string; tag: string }[] = [];
  const heldOutLexiconEntries: { word: string; tag: string }[] = [];
  const addPool = (
    pool: Pool,
    tag: string,
    conv: (s: string) => string[] = (s) => s.split(/\s+/),
  ) => {
    // a held-out name is ranked where it would stand among the train split's names
    let trainRank = 0;
    for (const x of pool.all) {
      const heldOut = pool.isHeldOut(x);
      const rank = heldOut ? trainRank : trainRank++;
      addName(heldOut ? heldOutLexiconEntries : lexiconEntries, x, rank, tag, conv);
    }
  };
  /** A name's entries: each word under its tag, and for ranked tags under its rank bucket. */
  const addName = (
    entries: { word: string; tag: string }[],
    x: string,
    rank: number,
    tag: string,
    conv: (s: string) => string[],
  ) => {
    for (const w of conv(x)) entries.push({ word: w, tag });
    if (tag === "g.en" || tag === "s.en") {
      const bucket = rank < 200 ? "r1" : rank < 2000 ? "r2" : rank < 10000 ? "r3" : "r4";
      for (const w of conv(x)) entries.push({ word: w, tag: `${tag}.${bucket}` });
    }
    if (tag === "s.zh" || tag === "s.ko" || tag === "s.vi") {
      const bucket = rank < 10 ? "r1" : rank < 30 ? "r2" : rank < 100 ? "r3" : "r4";
      for (const w of conv(x)) entries.push({ word: w, tag: `${tag}.${bucket}` });
    }
    if (tag === "s.ja") {
      // gimei's 500 surnames by frequency head the list; IPAdic's readings are unranked
      const bucket = rank < 100 ? "r1" : rank < 500 ? "r2" : null;
      if (bucket) { for (const w of conv(x)) entries.push({ word: w, tag: `${tag}.${bucket}` }); }
    }
  };
  for (const o of western) {
    addPool(pools[o].given, `g.${o}`);
    addPool(pools[o].surname, `s.${o}`);
    if (pools[o].givenF) addPool(pools[o].givenF!, `g.${o}`);
    if (pools[o].surnameF) addPool(pools[o].surnameF!, `s.${o}`);
  }
  addPool(ruPools.given, "g.ru");
  addPool(ruPools.givenF, "g.ru");
  addPool(ruPools.surname, "s.ru");
  addPool(ruPools.surnameF, "s.ru");
  addPool(ruPools.middle, "m.ru");
  addPool(ruPools.middleF, "m.ru");
  for (const p of [ruPools.given, ruPools.givenF]) addPool(p, "g.ru", (s) => [translitRu(s)]);
  for (const p of [ruPools.surname, ruPools.surnameF]) addPool(p, "s.ru", (s) => [translitRu(s)]);
  for (const p of [ruPools.middle, ruPools.middleF]) addPool(p, "m.ru", (s) => [translitRu(s)]);
  for (const o of ["el", "ar", "arNative", "he", "other", "heLatin", "cyrWest"]) {
    addPool(pools[o].given, `g.${o}`);
    addPool(pools[o].surname, `s.${o}`);
  }
  addPool(gaGivenF, "g.ga");
  addPool(gaGivenM, "g.ga");
  for (
    const [pool, particles] of [[gaStemsO, ["Ó", "Ní"]], [gaStemsMac, ["Mac", "Nic"]]] as const
  ) {
    addPool(pool, "s.ga", (stem) => particles.flatMap((p) => irishSurname(p, stem).split(" ")));
  }
  addPool(zhSurRank, "s.zh");
  for (const [, vs] of ZH_SURNAMES) {
    for (const v of vs) lexiconEntries.push({ word: v, tag: "s.zh" });
  }
  for (const c of ZH_COMPOUND_SURNAMES) lexiconEntries.push({ word: c, tag: "s.zh" });
  addPool(zhRare, "s.zh.rare");
  addPool(zhsSurname, "s.zh");
  addPool(zhsGiven, "g.zhs");
  addPool(zhGiven, "g.zh", (s) => [s.replace(/\|/g, "")]);
  {
    // the most frequent given-name syllables (by character frequency in real given names)
    const counts = new Map<string, number>();
    for (const c of charList) counts.set(charPy.get(c)!, (counts.get(charPy.get(c)!) ?? 0) + 1);
    const top = [...counts].sort((x, y) => y[1] - x[1]);
    top.slice(0, 40).forEach(([py]) => lexiconEntries.push({ word: py, tag: "g.zh.f1" }));
    top.slice(40, 120).forEach(([py]) => lexiconEntries.push({ word: py, tag: "g.zh.f2" }));
  }
  addPool(pools.zhHan.given, "g.zh");
  // single characters of CJK names (for names written without spaces, split per character)
  const addChars = (pool: Pool, tag: string) => {
    for (const x of pool.all) {
      const entries = pool.isHeldOut(x) ? heldOutLexiconEntries : lexiconEntries;
      for (const ch of x) entries.push({ word: ch, tag });
    }
  };
  addChars(pools.zhHan.given, "gc.zh");
  addChars(pools.jaHan.given, "gc.ja");
  addChars(pools.jaHan.surname, "sc.ja");
  addChars(koGivenHangul, "gc.ko");
  addPool(pools.zhHan.surname, "s.zh");
  KO_SURNAMES.forEach(([h, vs], rank) => {
    const bucket = rank < 10 ? "r1" : rank < 30 ? "r2" : "r3";
    for (const w of [h, ...vs]) {
      lexiconEntries.push({ word: w, tag: "s.ko" }, { word: w, tag: `s.ko.${bucket}` });
    }
  });
  addPool(koGiven, "g.ko", (s) => [s.replace(/\|/g, "")]);
  {
    // single given-name syllables in every usual spelling ("Hye Yoon", "Min Jun")
    const syls = new Set<string>();
    for (const x of koGiven.train) for (const y of x.split("|")) syls.add(y);
    for (const y of syls) {
      for (const v of [y, ...koSpellings(y)]) lexiconEntries.push({ word: v, tag: "gs.ko" });
    }
  }
  addPool(koGivenHangul, "g.ko");
  addPool(pools.koHangul.surname, "s.ko");
  addPool(pools.ja.given, "g.ja", romajiSpellings);
  addPool(pools.ja.surname, "s.ja", romajiSpellings);
  addPool(pools.jaHan.given, "g.ja");
  addPool(pools.jaHan.surname, "s.ja");
  addPool(viSur, "s.vi", (s) => [s, stripMarks(s)]);
  addPool(viMid, "m.vi", (s) => [s, stripMarks(s)]);
  addPool(viGiven, "g.vi", (s) => [s, stripMarks(s)]);
  for (const f of AR_FAMILY) lexiconEntries.push({ word: `al-${f}`, tag: "s.ar" });
  addPool(faGivenM, "g.fa");
  addPool(faGivenF, "g.fa");
  addPool(faSurname, "s.fa");
  addPool(faPlace, "s.fa");
  const faGivenWords = [FA_COMPOUND_FIRST, FA_COMPOUND_SECOND, FA_SAYYID_MALE, FA_SAYYID_FEMALE];
  for (const w of faGivenWords.flat()) lexiconEntries.push({ word: w, tag: "g.fa" });
  for (const w of FA_SURNAME_TAILS) lexiconEntries.push({ word: w, tag: "s.fa.tail" });

  return {
    compose,
    syllables: {
      zh: [...zhSyl].sort(),
      ko: [...koSyl].sort(),
      ja: JA_SYLLABLES,
      zhs: [...new Set([...ZH_SOUTH_GIVEN, ...ZH_SOUTH_SURNAMES].map((x) => x.toLowerCase()))]
        .sort(),
    },
    lexiconEntries,
    heldOutLexiconEntries,
    neverHiddenTags: ["g.hu"],
  };
}

/** Whether a full held-out name uses only held-out open-class names is tracked by the caller. */
export { stripMarks };
