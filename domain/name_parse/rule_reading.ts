/**
 * The spec's rule (§2.3 `source: rule`): the first word is the given name, the rest the surname,
 * so particles ("van", "de la", "bin", "y") stay with the surname. A split fixed by the written
 * form (comma-inverted, unspaced Chinese/Korean) wins over the rule.
 */
import type { ReadingConstraint } from "../../model/types.ts";
import type { CleanedName } from "./cleaned_name.ts";

const FIRST_WORD_GIVEN: ReadingConstraint = Object.freeze({ order: "given-first", split: 1 });

export function ruleReading(cleaned: CleanedName): ReadingConstraint {
  return cleaned.fixed ?? FIRST_WORD_GIVEN;
}
