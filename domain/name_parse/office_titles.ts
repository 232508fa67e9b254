/**
 * Offices written before a name ("Senior Vice President Linda Marsh", "Ward Councillor Tom Byrne",
 * "Secretary of State Jane Roe"): a closed vocabulary of office nouns, the words that qualify them
 * and the fields an "of" names. Cleaning drops such a phrase at the front while two name words
 * remain (one on a side of a comma-inverted name).
 *
 * An office noun alone is dropped only if it is rarely a name: "Dean", "Justice", "Chief",
 * "General" or "Speaker" alone are kept ("Dean Allen Smith"), and count only inside a
 * longer phrase ("Associate Dean", "Chief Justice").
 */
import { titleKey } from "./honorifics.ts";

const SOLE = `president vice-president commissioner councillor councilor councilmember councilwoman
  councilman senator secretary treasurer director governor mayor minister superintendent sheriff
  assemblymember assemblyman assemblywoman representative congressman congresswoman alderman
  alderwoman comptroller provost chairman chairwoman chairperson supervisor magistrate coroner
  assessor registrar ombudsman auditor administrator inspector commander premier ceo cfo coo cto vp
  svp evp principal`;
/** Office nouns that are also names: an office only after a qualifier or before another office. */
const IN_PHRASE = `dean justice chief general speaker chancellor clerk officer manager
  attorney counsel solicitor delegate chair executive judge member trustee head`;
const QUALIFIERS = `senior vice executive deputy assistant associate acting interim county city
  state ward district town borough parish municipal provincial regional national federal police
  fire school board lieutenant prime first former managing financial operating technology
  technical program project sales marketing union cabinet council village township`;
/** What an "of" after an office names ("Secretary of State", "Minister of Finance"). */
const FIELDS = `state finance health education defence defense justice labour labor agriculture
  commerce transportation transport the treasury interior foreign affairs students medicine
  operations engineering research admissions public works safety homeland security energy
  environment housing culture trade industry staff`;

const set = (list: string) => new Set(list.split(/\s+/).filter((w) => w.length > 0));
const SOLE_SET = set(SOLE);
const IN_PHRASE_SET = set(IN_PHRASE);
const QUALIFIER_SET = set(QUALIFIERS);
const FIELD_SET = set(FIELDS);

/**
 * How many words from `start` spell an office ("Vice President", "County Commissioner", "Attorney
 * General", "Secretary of State"), or 0. `texts(i)` gives the i-th word, `end` bounds the scan.
 */
export function officeTitleLength(
  texts: (i: number) => string | null,
  start: number,
  end: number,
): number {
  let i = start;
  let longest = 0;
  let offices = 0;
  while (i < end) {
    const text = texts(i);
    if (text === null) break;
    const key = titleKey(text);
    if (SOLE_SET.has(key) || IN_PHRASE_SET.has(key)) {
      offices++;
      i++;
      const length = i - start;
      if (length > 1 || SOLE_SET.has(key)) longest = length;
      continue;
    }
    if (key === "of" && offices > 0) {
      // "Secretary of State", "Minister of the Interior": one or two field words
      let j = i + 1;
      while (j < end && j <= i + 2 && FIELD_SET.has(titleKey(texts(j) ?? ""))) j++;
      if (j === i + 1) break;
      const last = titleKey(texts(j - 1)!);
      if (last === "the") break;
      i = j;
      longest = i - start;
      continue;
    }
    if (!QUALIFIER_SET.has(key)) break;
    i++;
  }
  return longest;
}
