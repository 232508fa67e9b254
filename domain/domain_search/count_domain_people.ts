/**
 * `GET /api/v1/domain-search/count`: how many people the directory holds at a domain's company,
 * and how many of them have an address verified within VERIFIED_EMAIL_MAX_AGE_DAYS, in all and
 * by department and by seniority. Free (rate limited): it names nobody and delivers no address,
 * so a workspace learns whether a domain search is worth its points before spending any.
 *
 * The same people as a domain search: the company the directory files under the domain, less the
 * people `hiddenPeople` names; a domain on the do-not-contact list counts nobody.
 */
import type { DomainContext } from "../context.ts";
import { isDoNotContact } from "../do_not_contact/is_do_not_contact.ts";
import type { DomainSearchReason } from "./domain_search_answer.ts";
import { hiddenPeople } from "./hidden_people.ts";
import { resolveSearchDomain } from "./resolve_search_domain.ts";

export interface CountBucket {
  /** The department or seniority; null for people without one. */
  value: string | null;
  people: number;
  verifiedEmails: number;
}

export interface DomainCount {
  domain: string | null;
  /** The directory's name of the company; null when it has none. */
  companyName: string | null;
  people: number;
  verifiedEmails: number;
  byDepartment: CountBucket[];
  bySeniority: CountBucket[];
  /** Why nothing was counted (`unusable-domain`, `free-mail-domain`, `do-not-contact` …). */
  reason: DomainSearchReason | null;
}

export async function countDomainPeople(
  ctx: DomainContext,
  input: { workspaceId: string; domain: string },
): Promise<DomainCount> {
  const resolved = await resolveSearchDomain(ctx, { domain: input.domain });
  const empty = (reason: DomainSearchReason | null, domain: string | null): DomainCount => ({
    domain,
    companyName: null,
    people: 0,
    verifiedEmails: 0,
    byDepartment: [],
    bySeniority: [],
    reason,
  });
  if (resolved.kind === "refused") {
    return empty(resolved.reason, resolved.organization?.domain ?? null);
  }
  const { domain } = resolved.organization;
  if (await isDoNotContact(ctx, { workspaceId: input.workspaceId, domain })) {
    return empty("do-not-contact", domain);
  }
  const companyId = resolved.companyId;
  if (companyId === null) return empty("not-found", domain);
  const hidden = await hiddenPeople(ctx, { workspaceId: input.workspaceId, companyId });
  const since = new Date(ctx.clock.now() - ctx.settings.verifiedEmailMaxAgeDays * 86_400_000);
  const { sql } = ctx.db;
  const [people, verified] = await Promise.all([
    sql<{ department: string | null; seniority: string | null; n: number }[]>`
      SELECT p.department, p.seniority, count(*)::int AS n
        FROM people p
       WHERE p.company_id = ${companyId} AND p.id <> ALL(${hidden}::text[])
       GROUP BY p.department, p.seniority`,
    sql<{ department: string | null; seniority: string | null; n: number }[]>`
      SELECT p.department, p.seniority, count(DISTINCT p.id)::int AS n
        FROM person_emails e JOIN people p ON p.id = e.person_id
       WHERE e.domain = ${domain} AND e.status = 'valid' AND e.verified_at >= ${since}
         AND p.company_id = ${companyId} AND p.id <> ALL(${hidden}::text[])
       GROUP BY p.department, p.seniority`,
  ]);
  const total = people.reduce((sum, row) => sum + row.n, 0);
  return {
    domain,
    companyName: resolved.organization.name,
    people: total,
    verifiedEmails: verified.reduce((sum, row) => sum + row.n, 0),
    byDepartment: buckets(people, verified, "department"),
    bySeniority: buckets(people, verified, "seniority"),
    reason: total === 0 ? "not-found" : null,
  };
}

function buckets(
  people: { department: string | null; seniority: string | null; n: number }[],
  verified: { department: string | null; seniority: string | null; n: number }[],
  by: "department" | "seniority",
): CountBucket[] {
  const map = new Map<string | null, CountBucket>();
  const bucket = (value: string | null) => {
    let found = map.get(value);
    if (!found) map.set(value, found = { value, people: 0, verifiedEmails: 0 });
    return found;
  };
  for (const row of people) bucket(row[by]).people += row.n;
  for (const row of verified) bucket(row[by]).verifiedEmails += row.n;
  // Largest first; the people without a value last.
  return [...map.values()].sort((a, b) =>
    (a.value === null ? 1 : 0) - (b.value === null ? 1 : 0) || b.people - a.people ||
    String(a.value).localeCompare(String(b.value))
  );
}
