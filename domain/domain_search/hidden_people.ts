/**
 * The people of a company a workspace must not be shown, counted or learned from: the one place
 * where domain search leaves a person out (the page, its total, the count, the pattern, a replay
 * and "find the rest" all take this list). Two lists:
 *
 * - the workspace's do-not-contact list: anyone with an address it names, by the address itself
 *   or by its domain. (The searched domain and its parents being listed refuses the whole search
 *   before this.) Driven by the workspace's list, which is short, rather than by the company's
 *   people, which may be tens of thousands: each entry is an index lookup
 *   (`person_emails_address`, `person_emails_domain`), then the person's company is checked by
 *   primary key.
 * - the service-wide suppression list (privacy/): anyone one of whose identifiers it names, as
 *   find, enrich and lead search read them: any address of theirs (verified or a channel), their
 *   profile URL, their name (as written, and given + surname) at the company's domain or under
 *   its name. Erasure deletes a suppressed person's record, but a record can come back by a path
 *   that does not check the list (a bulk load, a hand-made row), and a name + domain entry may
 *   meet a namesake record. The list holds keyed fingerprints whose key never leaves the
 *   process, so the database cannot join it to the people: the company's identifiers are read
 *   in one statement and fingerprinted here, then looked up by primary key a batch at a time
 *   (`suppressedAmong`). An empty list (the common case) costs one index probe and no read of
 *   the people. Otherwise the cost grows with the company: about six HMACs a person, measured
 *   at ~30 µs a fingerprint with its normalisation (10,000 people: ~1.7 s on a loaded 2-core
 *   machine). A fingerprint column kept on each record at import would let the database join
 *   instead; until then correctness comes first.
 */
import type { SuppressionContext } from "../privacy/is_suppressed.ts";
import { suppressedAmong } from "../privacy/is_suppressed.ts";
import type { PersonIdentifiers } from "../privacy/person_keys.ts";

/** People fingerprinted per `suppressedAmong` statement. */
const SUPPRESSION_BATCH = 2_000;

export async function hiddenPeople(
  ctx: SuppressionContext,
  input: { workspaceId: string; companyId: string },
): Promise<string[]> {
  const [listed, suppressed] = await Promise.all([
    doNotContactPeople(ctx, input),
    suppressedPeople(ctx, input.companyId),
  ]);
  return [...new Set([...listed, ...suppressed])];
}

async function doNotContactPeople(
  ctx: SuppressionContext,
  input: { workspaceId: string; companyId: string },
): Promise<string[]> {
  const rows = await ctx.db.sql<{ id: string }[]>`
    SELECT p.id
      FROM do_not_contact d
      JOIN person_emails e ON e.address = d.value
      JOIN people p ON p.id = e.person_id
     WHERE d.workspace_id = ${input.workspaceId} AND d.kind = 'email'
       AND p.company_id = ${input.companyId}
    UNION
    SELECT p.id
      FROM do_not_contact d
      JOIN person_emails e ON e.domain = d.value
      JOIN people p ON p.id = e.person_id
     WHERE d.workspace_id = ${input.workspaceId} AND d.kind = 'domain'
       AND p.company_id = ${input.companyId}`;
  return rows.map((r) => r.id);
}

/** The company's people the service-wide suppression list names. */
async function suppressedPeople(ctx: SuppressionContext, companyId: string): Promise<string[]> {
  const [{ any }] = await ctx.db.sql<{ any: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM suppressions) AS any`;
  if (!any) return [];
  const rows = await ctx.db.sql<{
    id: string;
    full_name: string;
    given: string | null;
    surname: string | null;
    network_url: string | null;
    domain: string | null;
    company: string;
    emails: string[];
  }[]>`
    SELECT p.id, p.full_name, p.given, p.surname, p.network_url, c.domain, c.name AS company,
           ARRAY(
             SELECT e.address FROM person_emails e WHERE e.person_id = p.id
             UNION
             SELECT jsonb_array_elements_text(
                      CASE WHEN jsonb_typeof(p.channels -> 'emails') = 'array'
                           THEN p.channels -> 'emails' ELSE '[]'::jsonb END)
           ) AS emails
      FROM people p JOIN companies c ON c.id = p.company_id
     WHERE p.company_id = ${companyId}`;
  const hidden: string[] = [];
  for (let start = 0; start < rows.length; start += SUPPRESSION_BATCH) {
    const batch = rows.slice(start, start + SUPPRESSION_BATCH);
    const people = batch.map((p): PersonIdentifiers => {
      const spellings = [p.full_name, ...(p.given && p.surname ? [`${p.given} ${p.surname}`] : [])];
      return {
        emails: p.emails,
        profileUrls: [p.network_url],
        names: spellings.map((name) => ({ name, domain: p.domain, company: p.company })),
      };
    });
    for (const i of await suppressedAmong(ctx, { people })) hidden.push(batch[i].id);
  }
  return hidden;
}
