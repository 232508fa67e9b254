/** What one answered name looks like (spec §2.3), before the billing fields are added. */
import { controlCharacterMessage, hasControlCharacter } from "../shared/control_characters.ts";

export type Spelling = "as-written" | "folded";

export interface NameAnswer {
  first: string;
  last: string;
  given: string;
  surname: string;
  nickname: string | null;
  source: "model" | "rule";
  confidence: number | null;
  bothOrders: boolean;
}

export type NameRowRefusal = {
  code: "invalid_input" | "validation_error";
  message: string;
};

/** One name's outcome: an answer, or a refusal that is never billed. */
export type NameOutcome =
  | { kind: "answer"; answer: NameAnswer }
  | { kind: "refused"; refusal: NameRowRefusal };

export const MAX_NAME_LENGTH = 256;
export const BLANK_NAME_MESSAGE = "name must not be blank";
export const CONTROL_CHARACTER_MESSAGE = controlCharacterMessage("name");
export const LONG_NAME_MESSAGE = `name must be at most ${MAX_NAME_LENGTH} characters`;
export const UNSPLITTABLE_MESSAGE = "The name cannot be split into a given name and a surname";

/** Blank or over 256 characters (code points) is a validation error of that name. */
export function nameValidationProblem(name: string): string | null {
  if (name.trim().length === 0) return BLANK_NAME_MESSAGE;
  // NUL, an escape, a bell: never part of a name (decision 0029); tab and line breaks separate
  // words as spaces do.
  if (hasControlCharacter(name)) return CONTROL_CHARACTER_MESSAGE;
  let length = 0;
  for (const _ of name) if (++length > MAX_NAME_LENGTH) return LONG_NAME_MESSAGE;
  return null;
}
