/**
 * Reads names: validate, clean, ask the model (when loaded) for its reading, fall back to the
 * rule below the model's threshold, and assemble the answer. Nothing is stored or logged.
 *
 * `confidence` is the model's probability for its whole reading whenever it ran (also when the
 * rule answered); `null` only without a model. Where the written form fixes the split (a
 * comma-inverted or unspaced Chinese/Korean name) the model only scores that reading.
 */
import type { NameModel, NameReading, ReadingConstraint } from "../../model/types.ts";
import { assembleAnswer, type CleanedName, cleanName, ruleReading } from "./mod.ts";
import { repairMojibake } from "./mojibake.ts";
import {
  type NameOutcome,
  nameValidationProblem,
  type Spelling,
  UNSPLITTABLE_MESSAGE,
} from "./name_answer.ts";

export async function readNames(
  model: NameModel | null,
  names: readonly string[],
  spelling: Spelling,
): Promise<NameOutcome[]> {
  const outcomes: NameOutcome[] = new Array(names.length);
  const pending: { index: number; cleaned: CleanedName; read: number[] }[] = [];
  names.forEach((name, index) => {
    const problem = nameValidationProblem(name);
    if (problem) {
      outcomes[index] = {
        kind: "refused",
        refusal: { code: "validation_error", message: problem },
      };
      return;
    }
    const cleaned = cleanName(name);
    if (cleaned.kind === "refused") {
      outcomes[index] = {
        kind: "refused",
        refusal: { code: "invalid_input", message: UNSPLITTABLE_MESSAGE },
      };
      return;
    }
    // Quoted nickname words always belong to the given name: the model reads the others, or every
    // word when a nickname is the only given name (the split is then fixed: '"Rick" Sutter').
    let read = cleaned.words.map((_, i) => i).filter((i) => !cleaned.nicknameWords.includes(i));
    if (read.length < 2 || (cleaned.fixed && !overReadWords(cleaned.fixed, read))) {
      read = cleaned.words.map((_, i) => i);
    }
    pending.push({ index, cleaned, read });
  });

  const readings: (NameReading | null)[] = model && pending.length > 0
    ? await model.readMany(pending.map(({ cleaned, read }) => ({
      // a mojibake word is read as the word it stands for; the answer keeps it as written
      words: read.map((i) => repairMojibake(cleaned.words[i]) ?? cleaned.words[i]),
      constraint: cleaned.fixed && overReadWords(cleaned.fixed, read),
    })))
    : pending.map(() => null);

  pending.forEach(({ index, cleaned, read }, i) => {
    const reading = readings[i];
    const confident = reading !== null && reading.confidence >= model!.threshold;
    const chosen: ReadingConstraint = cleaned.fixed ??
      (confident ? overAllWords(reading!, read) : ruleReading(cleaned));
    const { given, surname, nickname } = assembleAnswer(cleaned, chosen, spelling);
    outcomes[index] = {
      kind: "answer",
      answer: {
        first: given,
        last: surname,
        given,
        surname,
        nickname,
        source: confident ? "model" : "rule",
        confidence: reading ? reading.confidence : null,
        bothOrders: confident ? reading!.bothOrders : false,
      },
    };
  });
  return outcomes;
}

/** A split counted over all words, re-counted over the words the model reads (if still a split). */
function overReadWords(fixed: ReadingConstraint, read: number[]): ReadingConstraint | undefined {
  const split = read.filter((i) => i < fixed.split).length;
  return split >= 1 && split < read.length ? { order: fixed.order, split } : undefined;
}

/**
 * A reading of the words the model read, as a reading of all words: the block boundary falls
 * before the first word of the second block (nickname words then join the given name).
 */
function overAllWords(reading: ReadingConstraint, read: number[]): ReadingConstraint {
  return { order: reading.order, split: read[reading.split] };
}
