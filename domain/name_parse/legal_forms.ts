/**
 * The legal forms that end an organisation's name ("Acme Inc.", "Roe Consulting LLC"), shared by
 * the tokenizer (a form's period is its own, not a sentence's) and the remarks
 * (`name_remarks.ts`: the name is an organisation's). Keys are lower case with every period
 * removed ("L.L.C." → "llc").
 */
import { KeyFilter } from "./key_filter.ts";

/**
 * Legal forms that end an organisation's name. Those that are also initials ("SA", "BV", "NV")
 * count only written with their periods ("S.A.", "B.V."), see `DOTTED_ONLY`.
 */
export const LEGAL_FORMS = new Set(
  `inc incorporated llc pllc ltd limited corp corporation gmbh plc llp pty sarl srl spa sa bv nv
  associates holdings enterprises industries foundation`.split(/\s+/),
);
export const DOTTED_ONLY = new Set(["srl", "spa", "sa", "bv", "nv"]);
/** Also surnames ("Anna Corp"): a legal form only with its period, or in a comma group of its own. */
export const NAME_LIKE = new Set(["inc", "corp"]);

export const MIGHT_BE_LEGAL_FORM = new KeyFilter(LEGAL_FORMS, "all");

/** A word's key: lower case, every period removed ("a.k.a." → "aka", "L.L.C." → "llc"). */
export function legalFormKey(word: string): string {
  return word.replaceAll(".", "").toLowerCase();
}

/** "Inc.", "LLC", "S.A.": a legal form's word (its period is its own, not a sentence's). */
export function isLegalFormWord(word: string): boolean {
  return MIGHT_BE_LEGAL_FORM.mightHave(word) && LEGAL_FORMS.has(legalFormKey(word));
}
