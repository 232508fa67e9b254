/**
 * The corporate email patterns find guesses in, and how a person's name is spelled into them.
 *
 * A pattern (`first.last`, `flast`, …) is the shape of a local part; the name parts that fill it
 * come from the name model's reading (`given` words, `surname` words), folded to `[a-z0-9]`:
 * diacritics and case dropped (José → jose, Łukasz → lukasz, Ø → o, ß → ss), apostrophes dropped
 * (O'Brien → obrien), anything outside `[a-z0-9]` removed (a name in another script folds to
 * nothing). The primary spelling joins the whole surname (van der Berg → vanderberg, García Márquez
 * → garciamarquez, Smith-Jones → smithjones) and takes the first given word (José María → jose; a
 * hyphenated given name is joined: Jean-Luc → jeanluc). Variants, tried later: the surname as
 * written with its hyphen (smith-jones), German umlauts spelled out (Müller → mueller), the first
 * surname unit with its particles (garcia, delacruz) and the last main surname word (marquez,
 * berg), and given-name forms (jean-luc, jean, josemaria). Middle names only appear as one initial,
 * except in a name written surname first with several given words, whose last given word is
 * tried first among the variants as the called name (Nguyễn Văn An → an.nguyen).
 *
 * This module also reads patterns back: `patternOf` tells which pattern a known, verified address
 * follows, and `rankPatterns` orders the patterns a domain's known addresses show, most used first,
 * so find can try a domain's own pattern before the common ones.
 */
import { foldSpelling } from "../name_parse/fold_spelling.ts";
import { repairMojibakeWords } from "../name_parse/mojibake.ts";
import { isParticle } from "../name_parse/particles.ts";
import { isRoleMailbox } from "./role_mailbox.ts";

/**
 * Every pattern, in the default order find tries them.
 *
 * Where the order comes from (no figures are claimed, only a relative order):
 * - The head follows what public guides by email-finding vendors say without publishing their
 *   data: first.last first, then first@ and flast@ (vonsel.com "Company email formats";
 *   mycql.com "Business email format examples", which also lists first_last and last.first as less
 *   common; mailsfinder.com "How to format an email address" names first@, flast@ and first.l@ as
 *   the next group after first.last).
 * - An informal count of one administrator's business contacts (ankurandgenny.com, "E-mail SMTP
 *   questions") put flast above first.last and saw first.m.last, lastf and firstl occasionally:
 *   flast stays in the top three, the middle-initial forms stay last.
 * - The rest is this project's judgement, not a measurement: firstlast, f.last, first_last and last
 *   before the regional or legacy forms (firstl, first.l, lastf, last.first), then the separators
 *   and orders seen least (first-last, lastfirst) and the collision-prone initials (fl).
 * A domain's own verified addresses (`preferred`, from `rankPatterns`) override this order.
 */
export const PATTERN_NAMES = [
  "first.last", // jane.doe
  "first", // jane
  "flast", // jdoe
  "firstlast", // janedoe
  "f.last", // j.doe
  "first_last", // jane_doe
  "last", // doe
  "firstl", // janed
  "first.l", // jane.d
  "lastf", // doej
  "last.first", // doe.jane
  "first-last", // jane-doe
  "lastfirst", // doejane
  "fl", // jd
  "first.m.last", // jane.q.doe (only with a middle name)
  "fmlast", // jqdoe (only with a middle name)
] as const;

export type PatternName = typeof PATTERN_NAMES[number];

/** How many of the head of `PATTERN_NAMES` are tried before any spelling variant. */
export const COMMON_PATTERN_COUNT = 7;

/** A person's name as the name model reads it. */
export interface PersonName {
  /** Given name words, e.g. "Jean-Luc", "José María". */
  given: string;
  /** Surname words, e.g. "van der Berg", "García Márquez". */
  surname: string;
  /**
   * True when the name was written surname first ("Nguyễn Văn An", "Tanaka Hiroshi"). With more
   * than one given word, the last one is then tried too as the called name (Vietnamese names:
   * "An", not the middle "Văn").
   */
  surnameFirst?: boolean;
}

/** One spelling of a name, folded: each part `[a-z0-9]` (and `-` where a hyphen was written). */
export interface NameParts {
  /** The given name as used in a local part; "" when none is usable. */
  first: string;
  /** The surname as used in a local part; "" when none is usable. */
  last: string;
  /** The first middle name's initial; "" when there is none. */
  middle: string;
}

export type VariantKind =
  | "given-last-word"
  | "surname-hyphenated"
  | "umlauts-spelled-out"
  | "surname-first-unit"
  | "surname-last-word"
  | "given-hyphenated"
  | "given-first-part"
  | "given-joined";

export interface NameSpellings {
  primary: NameParts;
  /** Other spellings worth a late try, most likely first; none repeats `primary`. */
  variants: { kind: VariantKind; parts: NameParts }[];
}

/** The longest local part RFC 5321 allows. */
export const MAX_LOCAL_PART = 64;

type Needs = "first" | "last" | "both" | "middle";

/** What each pattern needs of a name, and the local part it makes (`f`/`l` are initials). */
const TEMPLATES: Record<PatternName, { needs: Needs; render: (p: NameParts) => string }> = {
  "first.last": { needs: "both", render: (p) => `${p.first}.${p.last}` },
  "first": { needs: "first", render: (p) => p.first },
  "flast": { needs: "both", render: (p) => `${initial(p.first)}${p.last}` },
  "firstlast": { needs: "both", render: (p) => `${p.first}${p.last}` },
  "f.last": { needs: "both", render: (p) => `${initial(p.first)}.${p.last}` },
  "first_last": { needs: "both", render: (p) => `${p.first}_${p.last}` },
  "last": { needs: "last", render: (p) => p.last },
  "firstl": { needs: "both", render: (p) => `${p.first}${initial(p.last)}` },
  "first.l": { needs: "both", render: (p) => `${p.first}.${initial(p.last)}` },
  "lastf": { needs: "both", render: (p) => `${p.last}${initial(p.first)}` },
  "last.first": { needs: "both", render: (p) => `${p.last}.${p.first}` },
  "first-last": { needs: "both", render: (p) => `${p.first}-${p.last}` },
  "lastfirst": { needs: "both", render: (p) => `${p.last}${p.first}` },
  "fl": { needs: "both", render: (p) => `${initial(p.first)}${initial(p.last)}` },
  "first.m.last": { needs: "middle", render: (p) => `${p.first}.${p.middle}.${p.last}` },
  "fmlast": { needs: "middle", render: (p) => `${initial(p.first)}${p.middle}${p.last}` },
};

function has(needs: Needs, p: NameParts): boolean {
  switch (needs) {
    case "first":
      return p.first !== "";
    case "last":
      return p.last !== "";
    case "both":
      return p.first !== "" && p.last !== "";
    case "middle":
      return p.first !== "" && p.last !== "" && p.middle !== "";
  }
}

function initial(part: string): string {
  return part.charAt(0);
}

/** True for a string that names a pattern (learned patterns come back from storage as strings). */
export function isPatternName(value: string): value is PatternName {
  return Object.hasOwn(TEMPLATES, value);
}

/**
 * The local part `pattern` gives for `parts`, or null when the pattern needs a part the name does
 * not have, or the result is shorter than 2 or longer than 64 characters.
 */
export function renderPattern(pattern: PatternName, parts: NameParts): string | null {
  const template = TEMPLATES[pattern];
  if (!has(template.needs, parts)) return null;
  const local = template.render(parts);
  return local.length < 2 || local.length > MAX_LOCAL_PART ? null : local;
}

const HYPHENS = /[-\u2010\u2011\u2012\u2013\u2014\u2212]+/u;
const UMLAUTS = /[äöü]/u;
const UMLAUT_SPELLED: Record<string, string> = { "ä": "ae", "ö": "oe", "ü": "ue" };

/** One written word, split at its hyphens into folded components (empty ones dropped). */
type Word = string[];

function words(text: string, spellUmlauts: boolean): Word[] {
  let s = text.normalize("NFC").toLowerCase();
  if (spellUmlauts) s = s.replace(/[äöü]/gu, (c) => UMLAUT_SPELLED[c]);
  return s.split(/\s+/u)
    .map((w) => w.split(HYPHENS).map(foldPart).filter((c) => c !== ""))
    .filter((w) => w.length > 0);
}

function foldPart(component: string): string {
  return foldSpelling(component).replace(/[^a-z0-9]+/g, "");
}

interface GivenForms {
  first: string;
  middle: string;
  hyphenated: string | null;
  firstPart: string | null;
  joined: string | null;
}

function givenForms(given: Word[]): GivenForms {
  if (given.length === 0) {
    return { first: "", middle: "", hyphenated: null, firstPart: null, joined: null };
  }
  const [head, ...rest] = given;
  return {
    first: head.join(""),
    middle: rest.length > 0 ? initial(rest[0][0]) : "",
    hyphenated: head.length > 1 ? head.join("-") : null,
    firstPart: head.length > 1 ? head[0] : null,
    joined: rest.length > 0 ? given.flat().join("") : null,
  };
}

interface SurnameForms {
  last: string;
  hyphenated: string | null;
  firstUnit: string | null;
  lastWord: string | null;
}

function surnameForms(surname: Word[]): SurnameForms {
  const components = surname.flat();
  if (components.length === 0) {
    return { last: "", hyphenated: null, firstUnit: null, lastWord: null };
  }
  const last = components.join("");
  const hyphenated = surname.some((w) => w.length > 1)
    ? surname.map((w) => w.join("-")).join("")
    : null;
  if (components.length === 1) return { last, hyphenated, firstUnit: null, lastWord: null };
  // Particles (van, der, de, la, di, y, bin …) count as main words when nothing else is left
  // ("Le", "Du" alone are surnames).
  const main = components.map((c) => !isParticle(c));
  if (!main.some((m) => m)) main.fill(true);
  const firstMain = main.indexOf(true);
  const lastMain = main.lastIndexOf(true);
  return {
    last,
    hyphenated,
    firstUnit: components.slice(0, firstMain + 1).join(""),
    lastWord: components[lastMain],
  };
}

/**
 * The spellings of a name for local parts: the primary one and its variants, most likely first.
 * Null when neither the given name nor the surname has anything left after folding.
 */
export function nameSpellings(written: PersonName): NameSpellings | null {
  // a mojibake name ("AndrÃ© MÃ¼ller") is spelled as the name it stands for
  const name = {
    given: repairMojibakeWords(written.given),
    surname: repairMojibakeWords(written.surname),
  };
  const given = givenForms(words(name.given, false));
  const surname = surnameForms(words(name.surname, false));
  if (given.first === "" && surname.last === "") return null;
  const primary: NameParts = { first: given.first, last: surname.last, middle: given.middle };
  const variants: NameSpellings["variants"] = [];
  const seen = new Set([key(primary)]);
  const add = (kind: VariantKind, parts: NameParts) => {
    if (seen.has(key(parts))) return;
    seen.add(key(parts));
    variants.push({ kind, parts });
  };
  // Written surname first with several given words: the last given word is the called name
  // (Nguyễn Văn An → an.nguyen, anguyen; Văn, Thị, Hữu are middle words, never used alone).
  const givenWords = words(name.given, false);
  if (written.surnameFirst && givenWords.length > 1) {
    add("given-last-word", {
      first: givenWords[givenWords.length - 1].join(""),
      last: surname.last,
      middle: "",
    });
  }
  if (surname.hyphenated) add("surname-hyphenated", { ...primary, last: surname.hyphenated });
  if (UMLAUTS.test(`${name.given} ${name.surname}`.normalize("NFC").toLowerCase())) {
    const g = givenForms(words(name.given, true));
    const s = surnameForms(words(name.surname, true));
    add("umlauts-spelled-out", { first: g.first, last: s.last, middle: g.middle });
  }
  if (surname.firstUnit) add("surname-first-unit", { ...primary, last: surname.firstUnit });
  if (surname.lastWord) add("surname-last-word", { ...primary, last: surname.lastWord });
  if (given.hyphenated) add("given-hyphenated", { ...primary, first: given.hyphenated });
  if (given.firstPart) add("given-first-part", { ...primary, first: given.firstPart });
  if (given.joined) add("given-joined", { ...primary, first: given.joined });
  return { primary, variants };
}

function key(p: NameParts): string {
  return `${p.first}\u0000${p.last}\u0000${p.middle}`;
}

/** Every spelling `patternOf` accepts: primary, variants, and each given form with each surname form. */
function allSpellings(s: NameSpellings): NameParts[] {
  const all = [s.primary, ...s.variants.map((v) => v.parts)];
  const firsts = [...new Set(all.map((p) => p.first))];
  const lasts = [...new Set(all.map((p) => p.last))];
  const seen = new Set(all.map(key));
  for (const first of firsts) {
    for (const last of lasts) {
      const parts = { first, last, middle: s.primary.middle };
      if (!seen.has(key(parts))) {
        seen.add(key(parts));
        all.push(parts);
      }
    }
  }
  return all;
}

/**
 * Which pattern a known address (or its local part) follows for this person, or null when none
 * does. Case is ignored, a `+tag` is ignored, and a trailing number (jane.doe2, told apart from a
 * namesake) still counts as its pattern; a shared role mailbox (`info@`) follows none. When several
 * patterns give the same local part (a one-letter given name makes `flast` and `firstlast` equal),
 * the more common one is named.
 */
export function patternOf(localPart: string, name: PersonName): PatternName | null {
  const at = localPart.lastIndexOf("@");
  const local = (at >= 0 ? localPart.slice(0, at) : localPart).trim().toLowerCase()
    .replace(/\+.*$/s, "");
  const spellings = nameSpellings(name);
  // A shared role mailbox (`info@` of "Info Smith") follows no personal pattern.
  if (local === "" || spellings === null || isRoleMailbox(local)) return null;
  const all = allSpellings(spellings);
  const match = (candidate: string): PatternName | null => {
    for (const pattern of PATTERN_NAMES) {
      for (const parts of all) {
        if (renderPattern(pattern, parts) === candidate) return pattern;
      }
    }
    return null;
  };
  const exact = match(local);
  if (exact !== null) return exact;
  const unnumbered = local.replace(/[-_.]?[0-9]+$/, "");
  return unnumbered !== local && unnumbered !== "" ? match(unnumbered) : null;
}

/** A verified address and the name of the person it belongs to. */
export interface PatternExample {
  address: string;
  given: string;
  surname: string;
}

/**
 * The patterns a domain's known addresses follow, most frequent first (ties in the default order);
 * addresses that follow no pattern are left out.
 */
export function rankPatterns(examples: readonly PatternExample[]): PatternName[] {
  const counts = new Map<PatternName, number>();
  for (const example of examples) {
    const pattern = patternOf(example.address, example);
    if (pattern !== null) counts.set(pattern, (counts.get(pattern) ?? 0) + 1);
  }
  return [...counts.keys()].sort((a, b) =>
    counts.get(b)! - counts.get(a)! || PATTERN_NAMES.indexOf(a) - PATTERN_NAMES.indexOf(b)
  );
}
