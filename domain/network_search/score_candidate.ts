/**
 * How well a profile found on the web fits the person asked for: the name model's reading of the
 * profile's name against the asked first and last name (diacritics, case and order folded), and
 * the employer when one was asked. Network search returns the best candidate only when it scores
 * at least `MATCH_THRESHOLD`: a weak best candidate is no match.
 */
import { foldName, normalizeCompanyName } from "../directory/normalize.ts";
import type { PersonName } from "../find/email_patterns.ts";

export const MATCH_THRESHOLD = 0.6;

export interface AskedPerson {
  firstName: string;
  lastName: string;
  company: string | null;
}

/**
 * `reading` is the candidate's name as the name model reads it (null when it does not split;
 * then its words are compared). 1.0 for the same name, 0.75 for the same surname and a given name
 * that starts with the asked one (middle names); times 0.7, plus 0.3 for the asked employer (or
 * none asked), minus 0.3 for another one; 0 when the names differ.
 */
export function scoreCandidate(
  asked: AskedPerson,
  candidate: { name: string; companyName: string | null },
  reading: PersonName | null,
): number {
  const first = foldName(asked.firstName);
  const last = foldName(asked.lastName);
  let nameScore = 0;
  if (reading) {
    const given = foldName(reading.given);
    const surname = foldName(reading.surname);
    if ((given === first && surname === last) || (given === last && surname === first)) {
      nameScore = 1;
    } else if (
      (surname === last && startsWithWord(given, first)) ||
      (surname === first && startsWithWord(given, last))
    ) nameScore = 0.75;
  } else {
    const words = foldName(candidate.name).split(" ");
    if (words.includes(first) && words.includes(last)) nameScore = 0.75;
  }
  if (nameScore === 0) return 0;
  const score = nameScore * 0.7 + employerScore(asked.company, candidate.companyName);
  return Math.round(score * 100) / 100;
}

function startsWithWord(words: string, word: string): boolean {
  return words === word || words.startsWith(`${word} `);
}

function employerScore(asked: string | null, stated: string | null): number {
  if (!asked) return 0.3;
  if (!stated) return 0;
  const a = normalizeCompanyName(asked);
  const s = normalizeCompanyName(stated);
  if (!a || !s) return 0;
  return a === s || s.startsWith(`${a} `) || a.startsWith(`${s} `) ? 0.3 : -0.3;
}
