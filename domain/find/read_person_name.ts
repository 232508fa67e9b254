import type { DomainContext } from "../context.ts";
import { readNames } from "../name_parse/read_names.ts";
import type { PersonName } from "./email_patterns.ts";

/**
 * The given names and surname of a person's full name, as the name model (or its rule) reads
 * it, and whether it was written surname first; null when the name does not split (find then
 * answers `invalid-input`).
 */
export async function readPersonName(
  ctx: DomainContext,
  fullName: string,
): Promise<PersonName | null> {
  const [outcome] = await readNames(ctx.nameModel, [fullName], "as-written");
  if (outcome.kind !== "answer") return null;
  const { given, surname } = outcome.answer;
  return { given, surname, surnameFirst: writtenSurnameFirst(fullName, { given, surname }) };
}

/**
 * Whether the surname was written before the given name ("Nguyễn Văn An"). A comma-inverted
 * "Surname, Given" is an index's convention, not the name's order: false.
 */
export function writtenSurnameFirst(fullName: string, name: { given: string; surname: string }) {
  const text = fullName.normalize("NFC").toLowerCase();
  if (text.includes(",") || !name.given || !name.surname) return false;
  const surnameAt = text.indexOf(name.surname.normalize("NFC").toLowerCase());
  const givenAt = text.indexOf(name.given.normalize("NFC").toLowerCase());
  return surnameAt >= 0 && givenAt >= 0 && surnameAt < givenAt;
}
