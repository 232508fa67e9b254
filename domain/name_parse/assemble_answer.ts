/**
 * Builds the answer strings from cleaned words and a reading (`{ order, split }`, meaning as in
 * model/types.ts): words joined by single spaces, given words in the order written, quoted
 * nickname words always in the given name in their position.
 */
import type { ReadingConstraint } from "../../model/types.ts";
import type { CleanedName } from "./cleaned_name.ts";
import { foldSpelling } from "./fold_spelling.ts";
import type { Spelling } from "./name_answer.ts";

export interface AssembledName {
  given: string;
  surname: string;
  nickname: string | null;
}

export function assembleAnswer(
  cleaned: CleanedName,
  reading: ReadingConstraint,
  spelling: Spelling,
): AssembledName {
  const { words, nicknameWords } = cleaned;
  const n = words.length;
  const split = Math.min(Math.max(reading.split, 1), n - 1);
  const givenFirst = reading.order === "given-first";
  const inGiven = new Array<boolean>(n);
  for (let i = 0; i < n; i++) inGiven[i] = givenFirst ? i < split : i >= split;
  for (const i of nicknameWords) inGiven[i] = true;
  ensureSurname(inGiven, nicknameWords, givenFirst);

  const given: string[] = [];
  const surname: string[] = [];
  for (let i = 0; i < n; i++) (inGiven[i] ? given : surname).push(words[i]);
  const fold = spelling === "folded";
  const givenText = given.join(" ");
  const surnameText = surname.join(" ");
  return {
    given: fold ? foldSpelling(givenText) : givenText,
    surname: fold ? foldSpelling(surnameText) : surnameText,
    nickname: cleaned.nickname === null
      ? null
      : fold
      ? foldSpelling(cleaned.nickname)
      : cleaned.nickname,
  };
}

/**
 * When moving nickname words emptied the surname, the non-nickname given word next to the
 * surname block becomes the surname.
 */
function ensureSurname(inGiven: boolean[], nicknameWords: number[], givenFirst: boolean): void {
  if (inGiven.some((g) => !g)) return;
  const nick = new Set(nicknameWords);
  const n = inGiven.length;
  for (let k = 0; k < n; k++) {
    const i = givenFirst ? n - 1 - k : k;
    if (!nick.has(i)) {
      inGiven[i] = false;
      return;
    }
  }
}
