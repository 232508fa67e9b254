/**
 * The addresses find asks a mail server about for one person at one domain, most likely first.
 *
 * Order: the patterns this domain is known to use (`preferred`, most used first) in the name's
 * primary spelling, then those patterns in the other spellings; then the common patterns (the head
 * of `PATTERN_NAMES`) in the primary spelling; then first.last and flast in the other spellings
 * (a hyphenated or shortened surname, umlauts spelled out, another given-name form); then the rarer
 * patterns. Duplicates are dropped (the first, higher-ranked pattern keeps an address) and the list
 * is capped at 16: a mail server grows suspicious of a client that asks about many recipients.
 * A local part that is a shared role mailbox (`info`, `sales`, `jobs`: `role_mailbox.ts`) is never
 * a candidate, whatever the name ("Info Smith", the surname of "Steve Jobs").
 * Nothing usable in the name (a name in a script that folds to nothing), or a domain that is not a
 * host name, gives an empty list.
 */
import {
  COMMON_PATTERN_COUNT,
  isPatternName,
  type NameParts,
  nameSpellings,
  PATTERN_NAMES,
  type PatternName,
  type PersonName,
  renderPattern,
} from "./email_patterns.ts";
import { isRoleMailbox } from "./role_mailbox.ts";

export interface EmailCandidate {
  /** `local@domain`, lower case. */
  address: string;
  pattern: PatternName;
}

export interface EmailCandidateOptions {
  /** Patterns this domain is known to use, most used first; they are tried first. */
  preferred?: readonly PatternName[];
  /** At most this many candidates (default and ceiling 16). */
  limit?: number;
}

/** The most candidates one lookup asks about. */
export const MAX_CANDIDATES = 16;

/** The patterns every spelling variant is tried in (after the domain's own, if any). */
const VARIANT_PATTERNS: readonly PatternName[] = ["first.last", "flast"];

const HOST =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

export function emailCandidates(
  name: PersonName,
  domain: string,
  options: EmailCandidateOptions = {},
): EmailCandidate[] {
  const host = mailDomain(domain);
  const spellings = nameSpellings(name);
  if (host === null || spellings === null) return [];
  const limit = Math.max(0, Math.min(options.limit ?? MAX_CANDIDATES, MAX_CANDIDATES));
  const preferred = [...new Set((options.preferred ?? []).filter((p) => isPatternName(p)))];
  const variants = spellings.variants.map((v) => v.parts);
  const out: EmailCandidate[] = [];
  const seen = new Set<string>();
  const add = (pattern: PatternName, parts: NameParts) => {
    const local = renderPattern(pattern, parts);
    if (local === null || seen.has(local)) return; // renderPattern keeps within 64 characters
    if (isRoleMailbox(local)) return; // `info@` is nobody's personal address, whatever the name
    const address = `${local}@${host}`;
    if (address.length > 254) return;
    seen.add(local);
    out.push({ address, pattern });
  };

  for (const pattern of preferred) add(pattern, spellings.primary);
  for (const parts of variants) for (const pattern of preferred) add(pattern, parts);
  for (const pattern of PATTERN_NAMES.slice(0, COMMON_PATTERN_COUNT)) {
    add(pattern, spellings.primary);
  }
  for (const parts of variants) for (const pattern of VARIANT_PATTERNS) add(pattern, parts);
  for (const pattern of PATTERN_NAMES.slice(COMMON_PATTERN_COUNT)) add(pattern, spellings.primary);
  return out.slice(0, limit);
}

/** The bare host of a mail domain, lower case (an IDN in its ASCII form), or null. */
function mailDomain(domain: string): string | null {
  const trimmed = domain.trim().toLowerCase().replace(/^@/, "").replace(/\.$/, "");
  if (trimmed === "" || /[\s/@:?#]/.test(trimmed)) return null;
  let host: string;
  try {
    host = new URL(`http://${trimmed}`).hostname;
  } catch {
    return null;
  }
  return HOST.test(host) && !/^[0-9.]+$/.test(host) ? host : null;
}
