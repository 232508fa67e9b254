/**
 * What records write beside or instead of a person's name:
 *
 * - a remark after the name that is not the name: a maiden name ("Jane Roe née Smith", "Anna
 *   Müller geb. Schmidt") or another name ("Jane Roe aka Janie"). The name ends at the marker.
 * - an organisation's name, told by its legal form at the end ("Acme Inc.", "Roe Consulting LLC",
 *   "Acme, Ltd."): not a person's name, so it does not split into a given name and a surname.
 *   Forms that are also surnames count only written as forms ("Acme Inc." but "Anna Corp").
 *
 * Keys are lower case with every period removed ("a.k.a." → "aka", "L.L.C." → "llc").
 */
import { KeyFilter } from "./key_filter.ts";
import { employerPhraseLength } from "./post_nominals.ts";
import type { NameToken } from "./tokenize_name.ts";
import {
  DOTTED_ONLY,
  LEGAL_FORMS,
  legalFormKey,
  MIGHT_BE_LEGAL_FORM,
  NAME_LIKE,
} from "./legal_forms.ts";

export { isLegalFormWord } from "./legal_forms.ts";

/** Markers of a maiden name or an alias: the name ends before them. */
const REMARK_MARKERS = new Set(["née", "geb", "geborene", "aka", "alias", "fka"]);
/** Also a surname ("Nee"): a marker only after two name words. */
const WEAK_REMARK_MARKERS = new Set(["nee"]);

const MIGHT_BE_REMARK = new KeyFilter([...REMARK_MARKERS, ...WEAK_REMARK_MARKERS], "all");

const key = legalFormKey;

/**
 * Where the remark in a group starts ("née Smith" of "Jane Roe née Smith"), or the group's length:
 * a marker with a word before it (two for "nee") and a word after it.
 */
export function remarkStart(group: NameToken[]): number {
  for (let i = 1; i < group.length - 1; i++) {
    const token = group[i];
    if (token.nick || !MIGHT_BE_REMARK.mightHave(token.text)) continue;
    const k = key(token.text);
    if (REMARK_MARKERS.has(k) || (i >= 2 && WEAK_REMARK_MARKERS.has(k))) return i;
  }
  return group.length;
}

/**
 * The name is an organisation's: its first group ends with a legal form after another word ("Acme
 * Inc.") that is not a person's employer ("Jane Roe - CEO at Acme Inc."), or a later group is the
 * legal form alone ("Acme, Inc.").
 */
export function endsWithLegalForm(group: NameToken[], isFirstGroup: boolean): boolean {
  const last = group[group.length - 1];
  if (last === undefined || last.nick) return false;
  if (isFirstGroup ? group.length < 2 : group.length !== 1) return false;
  if (!MIGHT_BE_LEGAL_FORM.mightHave(last.text)) return false;
  const k = key(last.text);
  if (!LEGAL_FORMS.has(k)) return false;
  const dotted = last.text.indexOf(".") > 0;
  if (DOTTED_ONLY.has(k) ? !dotted : NAME_LIKE.has(k) && !dotted && isFirstGroup) return false;
  const texts = (i: number) => (i >= 0 && i < group.length ? group[i].text : null);
  return !isFirstGroup || employerPhraseLength(texts, group.length, 1) === 0;
}
