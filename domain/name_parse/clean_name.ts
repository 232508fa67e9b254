/**
 * Cleans a full name before it is read: drops honorifics, credentials, generational suffixes,
 * pronouns and bracketed asides; keeps quoted nicknames as given-name words; turns a
 * comma-inverted "Surname, Given" into reading order with a fixed split; splits an unspaced
 * Chinese or Korean name by surname inventories; fixes the split of a two-word romanised Chinese
 * name whose words tell the surname ("Zhou Xiaoming"); or refuses a name that does not split.
 * Pure; never logs, and a refusal carries only a reason, never the name.
 */
import type { CleanedName, NameRefusal, RefusalReason } from "./cleaned_name.ts";
import { honorificKind } from "./honorifics.ts";
import { isParticle } from "./particles.ts";
import {
  employerPhraseLength,
  hasInnerCapital,
  isCredentialKind,
  isInitial,
  isPronounTag,
  looksLikeCredential,
  postNominalKind,
  spacedCredentialLength,
  trailingPhraseLength,
} from "./post_nominals.ts";
import { endsWithLegalForm, remarkStart } from "./name_remarks.ts";
import { readPinyinName } from "./pinyin_names.ts";
import { splitUnspacedName } from "./split_unspaced_name.ts";
import { isAllCaps, stripLeadingTitles, stripTrailingPostNominals } from "./strip_titles.ts";
import { type NameToken, type TokenizedName, tokenizeName } from "./tokenize_name.ts";

export type { CleanedName, FixedReading, NameRefusal, RefusalReason } from "./cleaned_name.ts";

const REFUSALS: Record<RefusalReason, NameRefusal> = {
  "one-word": Object.freeze({ kind: "refused", reason: "one-word" }),
  "surname-only": Object.freeze({ kind: "refused", reason: "surname-only" }),
  "initial-surname": Object.freeze({ kind: "refused", reason: "initial-surname" }),
  "noise": Object.freeze({ kind: "refused", reason: "noise" }),
  "unsupported-script": Object.freeze({ kind: "refused", reason: "unsupported-script" }),
  "organisation": Object.freeze({ kind: "refused", reason: "organisation" }),
};

export function cleanName(input: string): CleanedName | NameRefusal {
  const tokenized = tokenizeName(input);
  const answer = cleanTokens(tokenized);
  // "(Rick) Smith", "(Vinnie) van Gogh": without the aside before it the name is one surname,
  // so the aside is the given name, read as a nickname
  if (
    answer.kind === "refused" &&
    (answer.reason === "one-word" || answer.reason === "surname-only") &&
    tokenized.leadingAside.length > 0 && tokenized.nickname === null
  ) {
    const aside = tokenized.leadingAside.map((text) => ({ text, nick: true }));
    const [first, ...rest] = tokenized.groups;
    if (first === undefined) return answer;
    return cleanTokens({
      groups: [[...aside, ...first], ...rest],
      nickname: tokenized.leadingAside.join(" "),
      leadingAside: [],
    });
  }
  return answer;
}

function cleanTokens({ groups, nickname }: TokenizedName): CleanedName | NameRefusal {
  // "Acme Inc.", "Acme, Ltd.": an organisation's name has no given name and no surname
  if (groups.some((g, i) => endsWithLegalForm(g, i === 0))) return REFUSALS.organisation;
  const parts: NameToken[][] = [];
  for (const whole of groups) {
    // "Jane Roe née Smith", "Jane Roe aka Janie": the name ends at the remark
    const end = remarkStart(whole);
    const group = end === whole.length ? whole : whole.slice(0, end);
    // (the group itself when it holds no pronoun tag, the usual case: no copy)
    const kept = group.some((t) => !t.nick && isPronounTag(t.text))
      ? group.filter((t) => t.nick || !isPronounTag(t.text))
      : group;
    if (kept.length > 0) parts.push(kept);
  }
  if (parts.length === 0) return REFUSALS.noise;

  const main = parts[0];
  const titleComma = parts.length === 2 ? commaOfTitle(main, parts[1]) : null;
  if (titleComma) return plainName(titleComma, nickname);
  const given: NameToken[] = [];
  for (let i = 1; i < parts.length; i++) {
    if (!isTailGroup(parts[i], main, parts.slice(1, i))) given.push(...parts[i]);
  }
  if (given.length === 0) return plainName(main, nickname);

  // "Surname, Given": the comma fixes the split. A surname side that is one title-like word, and
  // nothing else, is that surname ("Mayor, Anna", "Herr, Anna", "Abbe, Anna").
  const stripped = stripSide(main);
  const surnameWords = stripped.length === 0 && main.length === 1 && !main[0].nick &&
      /^\p{L}+$/u.test(main[0].text)
    ? main
    : stripped;
  // "Kim, MS", "Roe, DR": capitals that strip as a title are the given name's initials here
  const strippedGiven = stripSide(given);
  const givenWords = strippedGiven.length === 0 && given.length === 1 && !isAllCaps(main) &&
      isCapitalInitials(given[0].text)
    ? given
    : strippedGiven;
  if (surnameWords.length === 0) return plainName(givenWords, nickname);
  if (givenWords.length === 0) return plainName(surnameWords, nickname);
  if (surnameWords.every((t) => t.nick)) return REFUSALS["one-word"];
  if (surnameWords.every((t) => isInitial(t.text))) return REFUSALS["initial-surname"];
  const words = [...givenWords, ...surnameWords];
  return cleaned(words, nickname, { order: "given-first", split: givenWords.length });
}

function plainName(tokens: NameToken[], nickname: string | null): CleanedName | NameRefusal {
  const words = stripTrailingPostNominals(stripLeadingTitles(tokens, "plain"), "plain");
  if (words.length === 0) return REFUSALS.noise;
  if (words.length === 1) {
    const split = splitUnspacedName(words[0].text);
    if (split === "unsupported") return REFUSALS["unsupported-script"];
    if (split === null || words[0].nick) return REFUSALS["one-word"];
    return cleaned(
      [{ text: split.surname, nick: false }, { text: split.given, nick: false }],
      null,
      { order: "surname-first", split: 1 },
    );
  }
  // Quoted nickname words are given names: a surname needs two other words around it, or a
  // nickname before it that is the only given name ('"Rick" Sutter', '"Vinnie" van Gogh';
  // 'Bart "Barty"' is one word).
  let plainWords = 0;
  for (const w of words) if (!w.nick) plainWords++;
  // every word left stood in quotes ('"Jane Roe", Esq.'): the quotes hold the name, not a nickname
  if (plainWords === 0) return plainName(words.map((w) => ({ text: w.text, nick: false })), null);
  let leadingNicks = 0;
  while (leadingNicks < words.length && words[leadingNicks].nick) leadingNicks++;
  if (leadingNicks > 0 && plainWords === words.length - leadingNicks) {
    const rest = words.slice(leadingNicks);
    if (rest.length === 1 && isInitial(rest[0].text)) return REFUSALS["initial-surname"];
    if (rest.length === 1 || surnameOnly(rest)) {
      return cleaned(words, nickname, { order: "given-first", split: leadingNicks });
    }
  }
  if (plainWords < 2) return REFUSALS["one-word"];
  if (surnameOnly(words)) return REFUSALS["surname-only"];
  // "de la", "van der", "y la": particles in lower case with no name for them to join
  if (words.every((w) => !w.nick && isParticle(w.text) && w.text === w.text.toLowerCase())) {
    return REFUSALS.noise;
  }
  let last = words.length - 1;
  while (words[last].nick) last--;
  if (withheldSurname(words, last)) return REFUSALS["initial-surname"];
  // (readPinyinName reads only two-word names: no list of texts for the others)
  const pinyin = plainWords === words.length && words.length === 2
    ? readPinyinName([words[0].text, words[1].text])
    : null;
  return pinyin ? cleaned(words, nickname, pinyin) : cleaned(words, nickname);
}

/**
 * "van Gogh", "de la Cruz", "bin Laden": particles written in lower case, then one capitalised
 * word, is a surname alone. Only the written case tells it: "Van Morrison", "Le Minh", "Ben Ali"
 * and an all-lower-case "van gogh" may open with a given name, and stay names to read.
 */
function surnameOnly(words: NameToken[]): boolean {
  const last = words.length - 1;
  for (let i = 0; i < last; i++) {
    const text = words[i].text;
    if (words[i].nick || !isParticle(text) || text !== text.toLowerCase()) return false;
  }
  const core = words[last].text;
  return !words[last].nick && !isParticle(core) && core !== core.toLowerCase();
}

/**
 * "John S.", "Ann B. C.": the surname is withheld to an initial. A final initial after two or
 * more full words ("Gerardo Aymard C.") is a second surname's initial and is kept.
 */
function withheldSurname(words: NameToken[], last: number): boolean {
  if (!isInitial(words[last].text)) return false;
  let full = 0;
  for (let i = 0; i < last; i++) if (!isInitial(words[i].text)) full++;
  return full < 2 || isInitial(words[last - 1].text);
}

/**
 * "jesse mr, ruiz", "geoffrey, md bauer": a comma right after a title, or right before a
 * credential that name words follow, belongs to that title and does not invert the name. Gives
 * the words in the order written without that title, or null when the comma is not such a one.
 */
function commaOfTitle(before: NameToken[], after: NameToken[]): NameToken[] | null {
  const last = before[before.length - 1];
  if (
    before.length >= 2 && !last.nick && honorificKind(last.text) === "strong" &&
    postNominalKind(last.text) === null // "Daniels Sr, Edward": Sr is Senior here
  ) {
    return [...before.slice(0, -1), ...after];
  }
  const first = after[0];
  if (
    after.length >= 2 && !isPhraseGroup(after) && !first.nick &&
    postNominalKind(first.text) === "credential" &&
    after.slice(1).some((t) => t.nick || postNominalKind(t.text) === null)
  ) {
    return [...before, ...after.slice(1)];
  }
  return null;
}

function stripSide(tokens: NameToken[]): NameToken[] {
  return stripTrailingPostNominals(stripLeadingTitles(tokens, "inverted"), "inverted");
}

/**
 * A comma group after the first that holds only suffixes, credentials, occupations or pronouns
 * (", Jr.", ", MD, PhD", ", Ph. D.", ", attorney at law", ", Trustee"). Dotted initials such as
 * ", J.D." after a one-word surname are read as the given name instead. A group of capitals
 * written like a credential ("LNCC") is one when a comma group before it (not the first) holds a
 * known credential ("BSN, RN, LNCC"), follows an inverted given name ("Roe, Jane, NCC"), or is
 * written unlike initials after two name words ("Jane Roe, NP-C", "Jane Roe, BCBA"), in a name not
 * all in capitals; `before` are the groups between.
 */
function isTailGroup(group: NameToken[], main: NameToken[], before: NameToken[][]): boolean {
  if (group.some((t) => t.nick)) return false;
  if (isPhraseGroup(group)) return true;
  const texts = (i: number) => (i >= 0 && i < group.length ? group[i].text : null);
  let dottedInitials = true;
  let plainWeak = true;
  let unknown = false;
  let initialsLike = false;
  let capitalWeak = true;
  for (let end = group.length; end > 0;) {
    const token = group[end - 1];
    if (isPronounTag(token.text)) {
      end--;
      continue;
    }
    const spaced = spacedCredentialLength(texts, end);
    if (spaced > 0) {
      if (group.slice(end - spaced, end).some((t) => t.text.length > 2)) dottedInitials = false;
      end -= spaced;
      continue;
    }
    const kind = postNominalKind(token.text);
    if ((kind !== "credential-weak" && kind !== "suffix-weak") || !isPlainlyWritten(token.text)) {
      plainWeak = false;
    }
    if (kind !== "credential-weak" || !isCapitalInitials(token.text)) capitalWeak = false;
    if (kind === null) {
      if (token.text.length < 3 || !looksLikeCredential(token.text)) return false;
      unknown = true;
      if (/^[A-Z]{3}\.?$/.test(token.text)) initialsLike = true;
      dottedInitials = false;
    } else if (!isCredentialKind(kind) || !isInitial(token.text) || token.text.indexOf(".") < 0) {
      dottedInitials = false;
    }
    end--;
  }
  // an unknown group of capitals is a credential after a known one, after the given name of an
  // inverted name ("Roe, Jane, NCC"), or, written unlike initials (four capitals or more, a
  // hyphen, slash or digit), after two name words ("Jane Roe, NP-C", not "de la Vega, JQ")
  if (
    unknown && !before.some(holdsKnownCredential) &&
    !(!isAllCaps(main) &&
      (before.length > 0 || (!initialsLike && stripSide(main).length >= 2)))
  ) {
    return false;
  }
  // after a one-word surname, ", J.D." and ", MA" are the given name's initials and ", Ma" or
  // ", Junior" (names as well as a credential or a suffix, written as a name) the given name
  const givenNameLike = dottedInitials || ((plainWeak || capitalWeak) && before.length === 0);
  return !(givenNameLike && stripSide(main).length === 1);
}

/** Two or three capitals, no periods: "MA", "JQA" (initials, or a credential written so). */
function isCapitalInitials(text: string): boolean {
  return /^[A-Z]{2,3}$/.test(text);
}

/** Written as a name word: no period, and neither in capitals nor with an inner capital ("EdD"). */
function isPlainlyWritten(text: string): boolean {
  return text.indexOf(".") < 0 && !hasInnerCapital(text);
}

function holdsKnownCredential(group: NameToken[]): boolean {
  return group.some((t) => !t.nick && isCredentialKind(postNominalKind(t.text)));
}

/**
 * The whole group is an occupation of several words ("attorney at law", "associate broker") or a
 * job title and its employer ("CEO at Acme Corp").
 */
function isPhraseGroup(group: NameToken[]): boolean {
  if (group.some((t) => t.nick)) return false;
  const texts = (i: number) => (i >= 0 && i < group.length ? group[i].text : null);
  return trailingPhraseLength(texts, group.length) === group.length ||
    employerPhraseLength(texts, group.length, 0) === group.length;
}

function cleaned(
  tokens: NameToken[],
  nickname: string | null,
  fixed?: CleanedName["fixed"],
): CleanedName {
  const words = new Array<string>(tokens.length);
  const nicknameWords: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    words[i] = tokens[i].text;
    if (tokens[i].nick) nicknameWords.push(i);
  }
  const result: CleanedName = {
    kind: "cleaned",
    words,
    nickname: nicknameWords.length > 0 ? nickname : null,
    nicknameWords,
  };
  if (fixed) result.fixed = fixed;
  return result;
}
