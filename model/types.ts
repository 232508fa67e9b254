/**
 * The name model's contract. `model/` imports nothing else of ours; the service passes a loaded
 * model (or `null` when it is absent) into the domain.
 *
 * A reading of `n` cleaned words is a given block and a surname block, in either order:
 * - `given-first`: words[0, split) are given names, words[split, n) the surname;
 * - `surname-first`: words[0, split) are the surname, words[split, n) the given names.
 * Both blocks are non-empty, so 1 <= split <= n - 1.
 */
export type NameOrder = "given-first" | "surname-first";

export interface NameReading {
  order: NameOrder;
  split: number;
  /** The model's probability for this whole reading, in [0, 1]. */
  confidence: number;
  /** True when the best reading in the other order is also genuinely plausible. */
  bothOrders: boolean;
}

/** Forces the reading (e.g. a comma-inverted name): the model only scores it. */
export interface ReadingConstraint {
  order: NameOrder;
  split: number;
}

export interface NameModelInput {
  /** Cleaned words, at least two, as written (case and diacritics kept). */
  words: readonly string[];
  constraint?: ReadingConstraint;
}

export interface NameModel {
  /** Travels with the weights, e.g. "name-tagger-2026.11.1". */
  readonly version: string;
  /** Below this confidence the service answers with the rule instead of the model's reading. */
  readonly threshold: number;
  /** Reads many names in one inference call; one reading per input, in order. */
  readMany(inputs: readonly NameModelInput[]): Promise<NameReading[]>;
}
