/**
 * What the sources state about an address, in the order they are consulted (spec §4.5): the
 * directory's record, Gravatar and GitHub (asked together), then the network cross-reference.
 * Every source is consulted, even when the directory knows the address, unless an enrichment
 * wrote its findings to that record within `ENRICH_MAX_AGE_DAYS`: then the record answers alone,
 * each field under the source that stated it. Any source that cannot answer fails the whole
 * enrichment: a partial answer is never delivered.
 */
import type { DomainContext } from "../context.ts";
import type { DirectoryPerson } from "../directory/directory_person.ts";
import { findPersonByEmail } from "../directory/find_person_by_email.ts";
import type { ReverseLookupUnavailable } from "../providers/reverse_lookup/port.ts";
import type { WebSearchUnavailable } from "../providers/web_search/port.ts";
import { crossReference, profileStatement } from "./cross_reference.ts";
import { enrichedRecently, ownStatement, recordStatements } from "./directory_statements.ts";
import type { Statement } from "./enrich_answer.ts";

export type StatementsRead =
  | {
    kind: "read";
    statements: Statement[];
    /** The directory's record of the address, when it has one. */
    person: DirectoryPerson | null;
    /** Whether the providers were asked (false: the record answered alone). */
    consulted: boolean;
  }
  | { kind: "unavailable"; why: ReverseLookupUnavailable | WebSearchUnavailable };

export async function readStatements(ctx: DomainContext, email: string): Promise<StatementsRead> {
  const person = await findPersonByEmail(ctx, email);
  if (person && enrichedRecently(person, ctx.clock.now(), ctx.settings.enrichMaxAgeDays)) {
    return { kind: "read", statements: recordStatements(person), person, consulted: false };
  }
  const statements: Statement[] = person ? [ownStatement(person)] : [];
  const answers = await Promise.all(ctx.reverseLookups.map((source) => source.lookup(email)));
  for (const [i, answer] of answers.entries()) {
    if (answer.kind === "unavailable") return { kind: "unavailable", why: answer.why };
    if (answer.kind === "found") {
      statements.push({
        source: ctx.reverseLookups[i].source,
        url: answer.fields.profileUrl ?? null,
        fields: answer.fields,
      });
    }
  }
  const profile = await crossReference(ctx, statements);
  if (profile.kind === "unavailable") return { kind: "unavailable", why: profile.why };
  if (profile.kind === "found") statements.push(profileStatement(profile));
  return { kind: "read", statements, person, consulted: true };
}
