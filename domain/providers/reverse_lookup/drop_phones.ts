/**
 * Drops phone numbers from what a reverse-lookup source states, at the edge: the service never
 * returns one (spec §2.7). Both adapters pass every field they would return through
 * `dropPhones`, and a field whose value holds a phone number is dropped whole (never edited, so
 * every delivered value is still exactly what the source said).
 *
 * `looksLikePhone` errs towards "yes": a run of 7 to 15 digits (E.164 allows 15) that stands
 * alone (not glued to letters or other digits, as in a hex hash) and is written only with digits,
 * spaces, dots, hyphens, slashes and brackets, with an optional leading `+`, is a phone number;
 * so are `tel:`, `sms:`, `callto:` and `whatsapp:` links. Runs that are plainly dates
 * (`2024-01-15`, `15.01.2024`) or lists of years (`2015-2023`) are not. A long numeric id in a URL
 * (`/in/ada-12345678`) reads as a phone and its field is dropped: losing a field is the safer
 * mistake.
 */
import type { StatedFields } from "./port.ts";

const PHONE_SCHEME = /\b(?:tel|sms|callto|whatsapp):/i;
const RUN = String.raw`\(?\d[\d \u00A0.\-\u2010-\u2013/()]*\d`;

/**
 * Digits with the separators people write phone numbers with: after a `+` anywhere but inside a
 * number, otherwise standing alone (not glued to letters, as runs in a hex hash are).
 */
const DIGIT_RUN = new RegExp(
  String.raw`(?<!\p{N})\+[ \u00A0]?${RUN}(?!\p{N})|(?<![\p{L}\p{N}+])${RUN}(?![\p{L}\p{N}])`,
  "gu",
);

const DATE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{4})$/;
const YEAR = /^(?:1[89]|20)\d\d$/;

export function looksLikePhone(value: string): boolean {
  if (PHONE_SCHEME.test(value)) return true;
  for (const match of value.matchAll(DIGIT_RUN)) {
    const run = match[0];
    const digits = run.replace(/\D/g, "");
    if (digits.length < 7 || digits.length > 15) continue;
    if (DATE.test(run)) continue;
    const groups = run.split(/[^\d]+/).filter((g) => g !== "");
    if (groups.length > 1 && groups.every((g) => YEAR.test(g))) continue;
    return true;
  }
  return false;
}

/** The fields without any value that looks like a phone number (list items dropped one by one). */
export function dropPhones(fields: StatedFields): StatedFields {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(fields) as [string, unknown][]) {
    if (typeof value === "string") {
      if (!looksLikePhone(value)) kept[name] = value;
    } else if (Array.isArray(value)) {
      const items = value.filter((item): item is string =>
        typeof item === "string" && !looksLikePhone(item)
      );
      if (items.length > 0) kept[name] = items;
    }
  }
  return kept as StatedFields;
}
