/**
 * One web-search result → a profile candidate, or null when the result is not a profile page of
 * the network (or its title names no one).
 *
 * **The URL** must be a profile page: the network's host or any subdomain of it (`www.`, `uk.`),
 * http or https, no port or credentials, a path of the profile prefix and one slug (`/in/ada-l`),
 * optionally followed by a two-letter language version (`/in/ada-l/de`). Company pages, posts,
 * directory pages and other sites are null. The URL is normalised to
 * `https://{host}{prefix}{slug}`: https, no `www.` or country subdomain, no query, fragment,
 * language version or trailing slash, the slug lower-cased (as `normalizeNetworkUrl` does).
 *
 * **The title** ("First Last - Title - Company | Network", "First Last – Company | Network",
 * "First Last - Location | Network", "First Last - Title at Company | Network", with or without
 * the " | Network" suffix, sometimes cut short with "…" or "..."): HTML is stripped again (the
 * adapters already did), everything from the first " | " on is the site's name and dropped (so a
 * cut inside it loses nothing), the rest is split at spaced dashes (`-`, `–`, `—`); a last part
 * that is the network's name ("… - Network", or cut: "… - Netw…") is dropped. The first part is
 * the name, pronouns ("(she/her)") dropped (a cut name, or one that does not look like a name,
 * gives null). Of the other parts, one that is a location (see below) or the snippet's location
 * is the location; of the rest, with two or more the first ones are the title and the last the
 * company; a single one is split at " at " / " @ " / " bei " / " chez " into title and company;
 * a single plain one is decided by the snippet's evidence, in this order: its employer (or a
 * short part of it after the headline, as in "Place · Title · Company") → company, its
 * headline's title part or a job word (Engineer, Manager, CEO, …) → title, its headline → the
 * headline only, and without evidence an en or em dash (the company shape) → company; otherwise
 * it is left unused: a part that could be a location or a company is never guessed. A part cut
 * short ("Acme Cor…") is never a company, a title or a location.
 *
 * **The snippet** (and the provider's extra snippets, after it) gives evidence and fills the gaps:
 * split at "·", "|" and sentence ends, `Location: X` is the location, `Experience: X` the
 * employer, `Education: X` ignored, a part that matches a location pattern is the location, and
 * the first other short part (not the name, not "500+ connections", not a "View …'s profile"
 * sentence, not a fragment starting or ending with an ellipsis; a leading "Name - " taken off)
 * the headline, whose " at " split gives a title and an employer.
 *
 * **Locations** are recognised by a small list, never guessed: "City, Country", "City, State"
 * (US states and codes, a few provinces and regions), "City, Region, Country", a country or one of
 * some large cities alone, "Greater X Area", "X Metropolitan Area", "X Bay Area" and "Remote".
 *
 * The answer's `headline` is the title's own text for it ("Title - Company", "Title at Company",
 * "Title"), else the snippet's headline; `title`, `companyName`, `location` are null when unknown.
 */
import type { WebSearchResult } from "../providers/web_search/port.ts";
import { stripHtml } from "../providers/web_search/strip_html.ts";
import { canonicalProfileUrl, type ProfileNetwork } from "../shared/profile_network.ts";
import type { ProfileMatch } from "./profile_match.ts";
import {
  CITIES,
  CODES,
  COUNTRIES,
  COUNTRY_CODES,
  JOB_WORDS,
  LOCAL_COUNTRY_NAMES,
  REGIONS,
} from "./profile_word_lists.ts";

/** A profile as read from one search result: the shape network search answers with. */
export type ProfileCandidate = ProfileMatch;

export function readProfileResult(
  result: WebSearchResult,
  network: ProfileNetwork,
): ProfileCandidate | null {
  const networkUrl = canonicalProfileUrl(result.url, network);
  if (networkUrl === null) return null;
  const title = splitTitle(result.title, network);
  if (title === null) return null;
  const evidence = readSnippets([result.snippet, ...(result.extraSnippets ?? [])], title.name);
  const read = readDetails(title.details, evidence);
  return {
    name: title.name,
    headline: read.headline ?? evidence.headline,
    title: read.title ?? evidence.headlineTitle,
    companyName: read.company ?? evidence.company ?? evidence.headlineCompany,
    location: read.location ?? evidence.location,
    networkUrl,
  };
}

// --- the title -------------------------------------------------------------------------------

interface Segment {
  text: string;
  /** The separator before it: a hyphen, or an en or em dash. */
  dash: "-" | "–";
  /** Cut short by the provider ("…", "..."). */
  cut: boolean;
}

const ELLIPSIS_END = /\s*(?:…|\.{3,})\s*$/u;

function splitTitle(
  raw: string,
  network: ProfileNetwork,
): { name: string; details: Segment[] } | null {
  let text = stripHtml(raw);
  let cut = ELLIPSIS_END.test(text);
  if (cut) text = text.replace(ELLIPSIS_END, "");
  const pipe = text.search(/\s*\|/);
  if (pipe >= 0) {
    // The cut (if any) fell in the site's name: the part before the pipe is whole.
    text = text.slice(0, pipe);
    cut = false;
  }
  const pieces = text.trim().split(/\s+([-–—])\s+/u);
  const segments: Segment[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    const dash = i === 0 || pieces[i - 1] === "-" ? "-" : "–";
    segments.push({ text: pieces[i].trim(), dash, cut: false });
  }
  if (cut) segments[segments.length - 1].cut = true;
  const last = segments[segments.length - 1];
  if (
    segments.length > 1 &&
    (last.cut ? startsNetworkName(last.text, network) : isNetworkName(last.text, network))
  ) segments.pop();
  const [first, ...details] = segments;
  const name = first.text.replace(PRONOUNS, "").replace(/\s+/gu, " ").trim();
  if (first.cut || !looksLikeName(name, network)) return null;
  return { name, details: details.filter((s) => s.text !== "") };
}

/** "(she/her)", "[he/him]", "(they)": dropped from the name. */
const PRONOUNS = /\s*[([]\s*(?:she|he|they|her|him|them|ze|xe)(?:\s*\/\s*\p{L}+){0,3}\s*[)\]]/giu;

/**
 * The network's name at the end of a title: its host, its display name, or its display name with a
 * country after it, as localized pages write it ("LinkedIn Deutschland"); never a longer name that
 * starts with it ("LinkedIn Learning" is an employer).
 */
function isNetworkName(text: string, network: ProfileNetwork): boolean {
  const t = fold(text);
  const host = network.host.toLowerCase();
  const name = fold(network.displayName);
  if (t.startsWith(`${name} `) && isCountryName(t.slice(name.length + 1))) return true;
  return t === host || t === `www.${host}` || t === name;
}

/** A cut segment that is the start of the network's name ("Netw…"). */
function startsNetworkName(text: string, network: ProfileNetwork): boolean {
  const t = fold(text);
  if (t === "") return true;
  return network.host.toLowerCase().startsWith(t) || fold(network.displayName).startsWith(t);
}

function looksLikeName(text: string, network: ProfileNetwork): boolean {
  if (text.length === 0 || text.length > 100) return false;
  if (!/\p{L}/u.test(text) || /[\d:@/\\]|https?/iu.test(text)) return false;
  if (text.split(" ").length > 8) return false;
  return !isNetworkName(text, network);
}

// --- the snippet -----------------------------------------------------------------------------

interface Evidence {
  location: string | null;
  company: string | null;
  headline: string | null;
  headlineTitle: string | null;
  headlineCompany: string | null;
  /** Other short plain parts after the headline ("Berlin · Engineer · Acme": Acme). */
  mentions: string[];
}

const LABELS: [RegExp, "location" | "company" | "headline" | "skip"][] = [
  [/^(?:location|standort|ort|lieu|ubicación|localização|locatie|località)\s*:\s*/iu, "location"],
  [
    /^(?:experience|berufserfahrung|expérience|experiencia|experiência|ervaring|esperienza)\s*:\s*/iu,
    "company",
  ],
  [/^(?:headline|title|position)\s*:\s*/iu, "headline"],
  [/^(?:education|ausbildung|formation|educación|formação|opleiding|formazione)\s*:\s*/iu, "skip"],
];
const SNIPPET_SPLIT =
  /\s*[·•]\s*|\s+\|\s+|(?<!\b(?:St|Dr|Mr|Mrs|Ms|Jr|Sr|Inc|Ltd|Co|Corp|Mt|Ft))\.\s+(?=[\p{Lu}\d])/u;
/** "500+ connections", "mehr als 500 Kontakte", "plus de 500 relations", "Más de 500 contactos". */
const CONNECTIONS = new RegExp(
  String.raw`^(?:(?:over|more than|mehr als|plus de|más de|mais de|meer dan|oltre)\s+)?` +
    String.raw`\d[\d,.]*\s*\+?\s*(?:connections?|followers?|kontakte|follower|relations|` +
    String.raw`abonnés|contactos|seguidores|conexões|connessioni|collegamenti|connecties|volgers)`,
  "iu",
);
/** The page's own prose ("View Ada's profile", "Sehen Sie sich das Profil", "Consultez le profil"). */
const PROSE_START =
  /^(?:view|join|see|sign|visit|find|discover|connect|sehen|consultez|voir|vea|mira|veja|bekijk|visualizza|guarda)\b/iu;

function readSnippets(texts: string[], name: string): Evidence {
  const evidence: Evidence = {
    location: null,
    company: null,
    headline: null,
    headlineTitle: null,
    headlineCompany: null,
    mentions: [],
  };
  const person = fold(name);
  for (const text of texts) {
    for (const rawPart of stripHtml(text).split(SNIPPET_SPLIT)) {
      if (ELLIPSIS_END.test(rawPart)) continue;
      const fragment = ELLIPSIS_START.test(rawPart);
      let part = trimEnd(rawPart.replace(ELLIPSIS_START, ""));
      const named = NAME_DASH.exec(part);
      if (named && fold(named[1]) === person) part = named[2];
      if (part === "" || CONNECTIONS.test(part)) continue;
      const label = LABELS.find(([pattern]) => pattern.test(part));
      if (label) {
        const value = part.replace(label[0], "").trim();
        if (value === "" || label[1] === "skip") continue;
        if (label[1] === "location" && looksLikePlaceText(value)) evidence.location ??= value;
        if (label[1] === "company" && !looksLikeLocation(value)) evidence.company ??= value;
        if (label[1] === "headline") setHeadline(evidence, value);
        continue;
      }
      if (PROSE_START.test(part) || part.length > 100 || part.split(" ").length > 12) continue;
      if (fold(part) === person) continue;
      if (looksLikeLocation(part)) {
        evidence.location ??= part;
        continue;
      }
      // A part that starts mid-sentence ("… Engineer at Acme") is page text, not the headline.
      if (!fragment) setHeadline(evidence, part);
    }
  }
  return evidence;
}

const ELLIPSIS_START = /^\s*(?:…|\.{3,})\s*/u;
const NAME_DASH = /^(.+?)\s+[-–—]\s+(.+)$/u;
const ABBREVIATION_END = /\b(?:Inc|Ltd|Co|Corp|Jr|Sr|St|Bros|Mfg)\.$/u;

/** Trailing punctuation off, except an abbreviation's period ("Acme Inc."). */
function trimEnd(part: string): string {
  const t = part.trim().replace(/[,;:]+$/u, "").trim();
  return ABBREVIATION_END.test(t) ? t : t.replace(/\.+$/u, "").trim();
}

function setHeadline(evidence: Evidence, text: string): void {
  if (evidence.headline !== null) {
    evidence.mentions.push(text);
    return;
  }
  evidence.headline = text;
  const at = splitAt(text);
  if (at) {
    evidence.headlineTitle = at.title;
    evidence.headlineCompany = at.company;
  }
}

// --- reading the title's details with the evidence --------------------------------------------

interface Read {
  headline: string | null;
  title: string | null;
  company: string | null;
  location: string | null;
}

function readDetails(details: Segment[], evidence: Evidence): Read {
  const read: Read = { headline: null, title: null, company: null, location: null };
  const rest: Segment[] = [];
  for (const segment of details) {
    const isLocation = !segment.cut &&
      (looksLikeLocation(segment.text) || sameText(segment.text, evidence.location));
    if (isLocation) read.location ??= segment.text;
    else rest.push(segment);
  }
  if (rest.length >= 2) {
    const last = rest[rest.length - 1];
    const title = rest.slice(0, -1).map((s) => s.text).join(" - ");
    read.title = title;
    read.company = last.cut ? null : last.text;
    read.headline = last.cut ? title : `${title} - ${last.text}`;
    return read;
  }
  if (rest.length === 0) return read;
  const [segment] = rest;
  const at = splitAt(segment.text);
  if (at) {
    read.title = at.title;
    read.company = segment.cut ? null : at.company;
    read.headline = segment.cut ? at.title : segment.text;
    return read;
  }
  if (segment.cut) return read;
  const text = segment.text;
  if (
    sameText(text, evidence.company) || sameText(text, evidence.headlineCompany) ||
    evidence.mentions.some((mention) => sameText(text, mention))
  ) {
    read.company = text;
  } else if (sameText(text, evidence.headlineTitle) || looksLikeJobTitle(text)) {
    read.title = text;
    read.headline = text;
  } else if (sameText(text, evidence.headline)) {
    // The snippet's headline says it is a headline, not that it is a job title.
    read.headline = text;
  } else if (segment.dash === "–") {
    read.company = text;
  }
  return read;
}

const AT = /\s+(?:at|@|bei|chez)\s+/iu;

function splitAt(text: string): { title: string; company: string } | null {
  const match = AT.exec(text);
  if (!match) return null;
  const title = text.slice(0, match.index).trim();
  const company = text.slice(match.index + match[0].length).trim();
  if (title === "" || company === "") return null;
  return { title, company };
}

function sameText(a: string, b: string | null): boolean {
  if (b === null) return false;
  const x = fold(a);
  const y = fold(b);
  return x === y || y.startsWith(`${x},`) || x.startsWith(`${y},`);
}

function fold(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/gu, " ")
    .trim();
}

// --- locations and job titles ------------------------------------------------------------------
// The lists themselves are data, in profile_word_lists.ts.

const COUNTRY = new Set(COUNTRIES);
/** `folded` (lower case, no diacritics) names a country, in English or its own language. */
function isCountryName(folded: string): boolean {
  return COUNTRY.has(folded) || LOCAL_COUNTRY_NAMES.has(folded);
}
const REGION = new Set([...REGIONS, ...COUNTRIES]);
const CITY = new Set([...CITIES, ...COUNTRIES]);

const PLACE_WORDS = /^[\p{Lu}][\p{L}\p{M}.'’ -]{0,48}$/u;
const AREA =
  /^(?:greater\s+\S.*\s+(?:area|region)|\S.*\s+(?:metropolitan|metro|bay)\s+(?:area|region))$/iu;
const REMOTE = /^remote(?:\s*[,(–-].*)?$/iu;

/** A location by the list above; never a guess. */
export function looksLikeLocation(text: string): boolean {
  const t = text.trim();
  if (t === "" || t.length > 80) return false;
  if (REMOTE.test(t)) return true;
  const parts = t.split(/\s*,\s*/u);
  if (parts.length === 1) {
    return AREA.test(t) || CITY.has(fold(t)) || COUNTRY_CODES.has(t) ||
      /^greater (?:london|manchester)$/iu.test(t);
  }
  if (parts.length > 3 || !parts.every((p) => PLACE_WORDS.test(p) || AREA.test(p))) return false;
  const lastPart = parts[parts.length - 1];
  const last = fold(lastPart);
  return CODES.has(lastPart) || REGION.has(last) || (parts.length === 3 && COUNTRY.has(last));
}

/** A place-like label value (for `Location: X`, which says it is a place). */
function looksLikePlaceText(text: string): boolean {
  return text.length <= 80 && /\p{L}/u.test(text) && !/[@:/]/u.test(text);
}

function looksLikeJobTitle(text: string): boolean {
  return fold(text).split(/[^\p{L}-]+/u).some((word) => JOB_WORDS.has(word));
}
