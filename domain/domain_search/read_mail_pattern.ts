/**
 * A domain's address format, learned as find learns it: from the valid addresses the directory
 * holds at the domain (of people whose given name and surname are known), each read back to the
 * pattern it follows (`patternOf`, find's own reading). The most followed pattern is stated with
 * how many addresses follow it, its share of the addresses that follow any pattern, when the
 * newest of them was verified, and a confidence: the lower bound of the 95 % Wilson score
 * interval of that share, so that 3 of 3 (0.44) says less than 30 of 30 (0.89), and two formats
 * in equal numbers say little of either.
 *
 * A format does not go stale the way a mailbox does, so addresses of every age count; the newest
 * `SAMPLE` are read. The people `hiddenPeople` names, and addresses the workspace's
 * do-not-contact list names, are not learned from.
 */
import type { DbContext } from "../context.ts";
import { PATTERN_NAMES, type PatternName, patternOf } from "../find/email_patterns.ts";
import type { MailPattern, PatternAnswer } from "./domain_search_answer.ts";

/** Addresses read per search: the newest verified first. */
const SAMPLE = 500;
/** Fewer supporting addresses than this state no pattern. */
export const MIN_SUPPORT = 2;

const FORMATS: Record<PatternName, string> = {
  "first.last": "{first}.{last}",
  "first": "{first}",
  "flast": "{f}{last}",
  "firstlast": "{first}{last}",
  "f.last": "{f}.{last}",
  "first_last": "{first}_{last}",
  "last": "{last}",
  "firstl": "{first}{l}",
  "first.l": "{first}.{l}",
  "lastf": "{last}{f}",
  "last.first": "{last}.{first}",
  "first-last": "{first}-{last}",
  "lastfirst": "{last}{first}",
  "fl": "{f}{l}",
  "first.m.last": "{first}.{m}.{last}",
  "fmlast": "{f}{m}{last}",
};

export function patternFormat(name: PatternName): string {
  return FORMATS[name];
}

export async function readMailPattern(
  ctx: DbContext,
  input: { workspaceId: string; domain: string; hidden: readonly string[] },
): Promise<PatternAnswer> {
  const rows = await ctx.db.sql<
    { address: string; given: string; surname: string; verified_at: Date | null }[]
  >`
    SELECT e.address, p.given, p.surname, e.verified_at
      FROM person_emails e JOIN people p ON p.id = e.person_id
     WHERE e.domain = ${input.domain} AND e.status = 'valid'
       AND p.given IS NOT NULL AND p.surname IS NOT NULL
       AND p.id <> ALL(${input.hidden as string[]}::text[])
       AND NOT EXISTS (SELECT 1 FROM do_not_contact d
                        WHERE d.workspace_id = ${input.workspaceId} AND d.kind = 'email'
                          AND d.value = e.address)
     ORDER BY e.verified_at DESC NULLS LAST
     LIMIT ${SAMPLE}`;
  if (rows.length === 0) return { pattern: null, patternReason: "no-verified-addresses" };
  return learnPattern(rows.map((r) => ({
    address: r.address,
    given: r.given,
    surname: r.surname,
    verifiedAt: r.verified_at ? r.verified_at.toISOString() : null,
  })));
}

/** The pattern the addresses show (pure: the reading above, without the database). */
export function learnPattern(
  examples: readonly {
    address: string;
    given: string;
    surname: string;
    verifiedAt: string | null;
  }[],
): PatternAnswer {
  const tally = new Map<PatternName, { count: number; last: string | null }>();
  let patterned = 0;
  for (const example of examples) {
    const name = patternOf(example.address, example);
    if (name === null) continue;
    patterned++;
    const seen = tally.get(name) ?? { count: 0, last: null };
    seen.count++;
    if (example.verifiedAt && (!seen.last || example.verifiedAt > seen.last)) {
      seen.last = example.verifiedAt;
    }
    tally.set(name, seen);
  }
  // Ties in find's default order (the more common pattern first).
  const ranked = [...tally.entries()].sort((a, b) =>
    b[1].count - a[1].count || PATTERN_NAMES.indexOf(a[0]) - PATTERN_NAMES.indexOf(b[0])
  );
  const top = ranked[0];
  if (!top || top[1].count < MIN_SUPPORT) {
    return { pattern: null, patternReason: "too-few-addresses" };
  }
  const [name, { count, last }] = top;
  const pattern: MailPattern = {
    format: FORMATS[name],
    name,
    supportingAddresses: count,
    share: round(count / patterned),
    lastConfirmedAt: last,
    confidence: round(wilsonLowerBound(count, patterned)),
  };
  return { pattern, patternReason: null };
}

/** The lower bound of the Wilson score interval for `k` of `n` at 95 % (z = 1.96). */
export function wilsonLowerBound(k: number, n: number): number {
  if (n === 0) return 0;
  const z = 1.96;
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p) + z2 / (4 * n)) / n);
  return Math.max(0, (centre - spread) / (1 + z2 / n));
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
