import type { DomainContext } from "../context.ts";
import { readNames } from "../name_parse/read_names.ts";
import type { PersonName } from "./email_patterns.ts";

/**
 * The given names and surname of a person's full name, as the name model (or its rule) reads
 * it; null when the name does not split (find then answers `invalid-input`).
 */
export async function readPersonName(
  ctx: DomainContext,
  fullName: string,
): Promise<PersonName | null> {
  const [outcome] = await readNames(ctx.nameModel, [fullName], "as-written");
  if (outcome.kind !== "answer") return null;
  return { given: outcome.answer.given, surname: outcome.answer.surname };
}
