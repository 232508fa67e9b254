/**
 * What cleaning a full name yields: the name words to read, or a refusal.
 *
 * ONE representation of a split the written form already fixes: `fixed`, with the same meaning as
 * `ReadingConstraint` in model/types.ts (`given-first`: words[0, split) are given names;
 * `surname-first`: words[0, split) are the surname). Three cases set it:
 * - comma-inverted "Doe, John A." → words ["John", "A.", "Doe"] (reading order),
 *   fixed { order: "given-first", split: 2 };
 * - an unspaced Chinese or Korean name "王小明" → words ["王", "小明"],
 *   fixed { order: "surname-first", split: 1 };
 * - a two-word romanised Chinese name with a one-syllable surname and a joined given name of two
 *   or three syllables, in either order: "Zhou Xiaoming" → fixed { order: "surname-first",
 *   split: 1 }, "Xiaoming Zhou" → fixed { order: "given-first", split: 1 }.
 * Otherwise `fixed` is absent and the order is left to the model (or the rule).
 */
import type { NameOrder } from "../../model/types.ts";

export interface FixedReading {
  order: NameOrder;
  split: number;
}

export interface CleanedName {
  kind: "cleaned";
  /** Name words in reading order, as written (case, diacritics, own punctuation kept). */
  words: string[];
  /** Text of the first double-quoted nickname, else null. */
  nickname: string | null;
  /** Indices into `words` of quoted nickname words; they always belong to the given name. */
  nicknameWords: number[];
  /** Set when the written form fixes the split (see above). */
  fixed?: FixedReading;
}

export type RefusalReason =
  | "one-word"
  | "surname-only"
  | "initial-surname"
  | "noise"
  | "unsupported-script"
  /** "Acme Inc.": an organisation's name */
  | "organisation";

export interface NameRefusal {
  kind: "refused";
  reason: RefusalReason;
}
