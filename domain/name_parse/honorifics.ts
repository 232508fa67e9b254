/**
 * Leading honorifics and titles, many languages. Keys are lower case without the trailing period.
 *
 * - `strong`: never a given name; always dropped at the front ("Dr", "Mrs", "Herr", "Mme").
 * - `weak`: also a name or word ("Father", "Sheikh", "Judge"); dropped only when at least two
 *   name words remain (one in the given part of a comma-inverted name).
 * - `period`: dropped only written with a period, or inside a chain of titles ("Don." but not
 *   "Don Smith"; "Sen.", "Gen."). "M." (Monsieur) is not listed: it reads as an initial.
 */
import { KeyFilter } from "./key_filter.ts";
export type HonorificKind = "strong" | "weak" | "period";

const STRONG = `mr mrs ms miss mx mister missus messrs mmes dr drs doctor dres dra prof professor
  profa very rt honorable honourable rev revd reverend sir dame herr frau fräulein frl mme madame
  mlle mademoiselle monsieur mssr madam signor signora signorina sig.ra sigra sig.na dott dott.ssa
  dottssa dottor dottore dottoressa avv prof.ssa geom rag hr sr sra srta sres señor señora
  señorita senor senora senorita dña doña sñr fr fra mgr msgr monsignor monseigneur abbé abbe
  rabbi rebbe shri shrimati smt sushri thiru thirumathi capt captain cpt col colonel lt lieut
  lieutenant ltcol maj sgt sergeant cpl corporal pvt adm admiral cmdr commander cdr cmdt comdr
  brig brigadier gov governor senator representative congressman congresswoman councillor
  councilor councilman councilwoman alderman mayor president ambassador chancellor archbishop
  archdeacon excellency hrh hsh mevr mevrouw dhr meneer mw pani panna gospodin gospozha fru
  fröken rouva herra asszony sayın sayin ustaz ustadz ustadh datuk dato datin encik puan hj hjh
  hajjah dato' dato’ dipl univ doz priv o.univ a.o prof.dr dr.med dr.ing dr.rer dr.phil dr.h.c dkfm
  dipl.-ing dipl.ing licda lcda lcdo licdo arq engr atty attorney`;

const WEAK = `father sister brother mother elder deacon pastor bishop cardinal imam sheikh shaikh
  sheik cheikh haji hajji alhaji sayyid kumari lady lord duchess baron baroness count countess
  viscount marquess marquis major judge ibu general chief mullah mufti swami cantor`;

const PERIOD =
  `don dom dona hon sen rep pres gen amb pr br ir mag judge lic arch ing sig dn mons gral
  cap cmte cnel insp`;

/** Parts that complete a dotted title ("Dr.med.", "Dott.ssa", "Dipl.-Ing.", "Lt.Gen."). */
const SEGMENTS = `med rer nat phil habil jur oec dent vet sc techn ing dipl h c ssa ra na pol
  theol soc agr math paed publ oec mult nat hon gen gov col`;

function words(list: string): string[] {
  return list.split(/\s+/).filter((w) => w.length > 0).map((w) => w.replace(/\.$/, ""));
}

const KIND = new Map<string, HonorificKind>();
for (const w of words(PERIOD)) KIND.set(w, "period");
for (const w of words(WEAK)) KIND.set(w, "weak");
for (const w of words(STRONG)) KIND.set(w, "strong");
const SEGMENT = new Set(words(SEGMENTS));
const MIGHT_BE_TITLE = new KeyFilter(KIND.keys(), "trailing");
const SPLIT = /[.\-]+/;

/** Lower case, trailing periods removed. */
export function titleKey(word: string): string {
  let end = word.length;
  while (end > 0 && word.charCodeAt(end - 1) === 46) end--;
  return word.slice(0, end).toLowerCase();
}

export function honorificKind(word: string): HonorificKind | null {
  // not a title, and no period or hyphen to make it a dotted chain of three characters or
  // more: no key to build
  const might = MIGHT_BE_TITLE.mightHave(word);
  if (!might) {
    if (word.indexOf(".") < 0 && word.indexOf("-") < 0) return null;
    let end = word.length;
    while (end > 0 && word.charCodeAt(end - 1) === 46) end--;
    if (end < 3) return null;
  }
  const key = titleKey(word);
  const kind = might ? KIND.get(key) : undefined;
  if (kind) return kind;
  if (key.length < 3 || !SPLIT.test(key)) return null;
  // A dotted chain such as "Lt.Gen." or "Prof.Dr.": every part a title, one of them a real one.
  let real = false;
  for (const part of key.split(SPLIT)) {
    if (part.length === 0) continue;
    const k = KIND.get(part);
    if (k) real = true;
    else if (!SEGMENT.has(part)) return null;
  }
  return real ? "strong" : null;
}

/**
 * What completes the title before it, written as its own word: a German doctorate's field with
 * its period ("Dr. med.", "Dr. rer. nat.", "Prof. Dr. h.c.") and the Malay "Seri" / "Sri" after
 * Datuk, Dato' or Datin ("Datuk Seri"; elsewhere "Sri" is a name: "Dr. Sri Mulyani Indrawati").
 */
export function isTitleQualifier(word: string, before: string): boolean {
  const key = titleKey(word);
  if (key === "seri" || key === "sri") return MALAY_TITLES.has(titleKey(before));
  if (word.charCodeAt(word.length - 1) !== 46) return false;
  for (const part of key.split(".")) {
    if (part.length > 0 && !SEGMENT.has(part)) return false;
  }
  return key.length > 0;
}
const MALAY_TITLES: ReadonlySet<string> = new Set(["datuk", "dato", "dato'", "dato’", "datin"]);

/** "Tan Sri" (Malay): a title of two words whose first is also a surname. */
export function isTwoWordTitle(first: string, second: string): boolean {
  const key = titleKey(second);
  return titleKey(first) === "tan" && (key === "sri" || key === "seri");
}

/** "The" opens a chain of titles ("The Rt Hon"). */
export function isTitleArticle(word: string): boolean {
  const key = titleKey(word);
  return key === "the" || key === "his" || key === "her";
}
