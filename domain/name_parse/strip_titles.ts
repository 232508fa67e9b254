/**
 * Drops leading honorifics and trailing suffixes / credentials from one group of name words.
 * Nickname words are never dropped and stop the scan.
 */
import { honorificKind, isTitleArticle, isTitleQualifier, isTwoWordTitle } from "./honorifics.ts";
import { officeTitleLength } from "./office_titles.ts";
import {
  employerPhraseLength,
  hasInnerCapital,
  isCredentialKind,
  isInitial,
  looksLikeCredential,
  type PostNominalKind,
  postNominalKind,
  spacedCredentialLength,
  trailingPhraseLength,
} from "./post_nominals.ts";
import type { NameToken } from "./tokenize_name.ts";

/**
 * `plain`: a whole name, which must keep two words for a weak title to go.
 * `inverted`: one side of "Surname, Given", which must keep one word.
 */
export type GroupRole = "plain" | "inverted";

/** Joins two titles of a couple: "Mr. and Mrs.", "Herr und Frau", "M. et Mme". */
const COUPLE_CONNECTORS: ReadonlySet<string> = new Set(["and", "und", "et", "y", "e"]);

export function stripLeadingTitles(tokens: NameToken[], role: GroupRole): NameToken[] {
  const keep = role === "plain" ? 2 : 1;
  let start = 0;
  let chain = false;
  while (start < tokens.length) {
    const token = tokens[start];
    if (token.nick) break;
    const remain = tokens.length - start - 1;
    // "Senior Vice President", "Ward Councillor", "Secretary of State"
    const office = officeTitleLength(
      (i) => (tokens[i].nick ? null : tokens[i].text),
      start,
      tokens.length,
    );
    if (office > 0 && tokens.length - start - office >= keep) {
      start += office;
      chain = true;
      continue;
    }
    const kind = honorificKind(token.text);
    let drop = false;
    if (kind === "strong") drop = true;
    else if (kind === "weak") drop = remain >= keep;
    // "Roe, Jr. Jane", "Roe, III Jane A.": a generational suffix written at the front of the given
    // part of a comma-inverted name
    else if (role === "inverted" && remain >= 1 && postNominalKind(token.text) === "suffix") {
      drop = true;
    } else if (kind === "period") drop = remain >= keep && (chain || token.text.endsWith("."));
    else if (chain && remain >= keep && isTitleQualifier(token.text, tokens[start - 1].text)) {
      drop = true; // "Dr. med.", "Datuk Seri"
    } else if (
      remain >= keep + 1 && !tokens[start + 1].nick &&
      isTwoWordTitle(token.text, tokens[start + 1].text)
    ) {
      // "Tan Sri Muhyiddin Yassin": both words go
      start += 2;
      chain = true;
      continue;
    } else if (
      (isTitleArticle(token.text) || (chain && COUPLE_CONNECTORS.has(token.text.toLowerCase()))) &&
      start + 1 < tokens.length
    ) {
      // "The Rt Hon", and the couple's "Mr. and Mrs."
      drop = !tokens[start + 1].nick && honorificKind(tokens[start + 1].text) !== null;
    }
    if (!drop) break;
    chain = true;
    start++;
  }
  return start === 0 ? tokens : tokens.slice(start);
}

export function stripTrailingPostNominals(tokens: NameToken[], role: GroupRole): NameToken[] {
  const keep = role === "plain" ? 2 : 1;
  const allCaps = isAllCaps(tokens);
  const texts = (
    i: number,
  ) => (i >= 0 && i < tokens.length && !tokens[i].nick ? tokens[i].text : null);
  let end = tokens.length;
  let afterCredential = false;
  while (end > 0) {
    const token = tokens[end - 1];
    if (token.nick) break;
    const phrase = trailingPhraseLength(texts, end) || employerPhraseLength(texts, end, keep);
    if (phrase > 0 && end - phrase >= keep) {
      end -= phrase;
      afterCredential = true;
      continue;
    }
    // "Ph. D.", "M. B. A."; on a side of a comma-inverted name "R. N." stays two initials
    const spaced = spacedCredentialLength(texts, end);
    if (
      spaced > 0 && end - spaced >= keep &&
      (role === "plain" || tokens.slice(end - spaced, end).some((t) => t.text.length > 2))
    ) {
      end -= spaced;
      afterCredential = true;
      continue;
    }
    const kind = postNominalKind(token.text);
    if (kind === null && !allCaps && end - 1 >= keep && looksLikeCredential(token.text)) {
      // an unknown credential in a stack of known ones: "BSN RN LNCC"
      // (after a credential that is not also a surname: "Lan Do NGUYEN" keeps its surname)
      const before = postNominalKind(tokens[end - 2].text);
      if (afterCredential || before === "credential" || before === "occupation") {
        end--;
        afterCredential = true;
        continue;
      }
    }
    if (!dropTrailing(kind, token.text, tokens, end, keep, role, allCaps, afterCredential)) break;
    if (isCredentialKind(kind)) afterCredential = true;
    end--;
  }
  return end === tokens.length ? tokens : tokens.slice(0, end);
}

function dropTrailing(
  kind: PostNominalKind | null,
  text: string,
  tokens: NameToken[],
  end: number,
  keep: number,
  role: GroupRole,
  allCaps: boolean,
  afterCredential: boolean,
): boolean {
  const remain = end - 1;
  switch (kind) {
    case null:
      return false;
    case "suffix":
    case "credential":
      return remain >= 1;
    case "suffix-weak":
      return remain >= keep;
    case "occupation":
      // "Paul M. Nurse" keeps its surname: an occupation follows a surname, not an initial
      return remain >= keep && !isInitial(tokens[end - 2].text);
    case "numeral-v":
      return role === "plain" && remain >= 2 && !isInitial(tokens[end - 2].text);
    case "credential-weak":
      return remain >= keep && (afterCredential || text.indexOf(".") > 0 ||
        (!allCaps && (isUpper(text) || hasInnerCapital(text))));
  }
}

function isUpper(text: string): boolean {
  return text === text.toUpperCase() && text !== text.toLowerCase();
}

/** No word holds a lower-case letter ("JANE ROE"). */
export function isAllCaps(tokens: NameToken[]): boolean {
  for (const t of tokens) {
    if (hasLowerCase(t.text)) return false;
  }
  return true;
}

/** `text !== text.toUpperCase()`, without the upper-cased copy when the text is ASCII. */
function hasLowerCase(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) return text !== text.toUpperCase();
    if (c >= 97 && c <= 122) return true;
  }
  return false;
}
