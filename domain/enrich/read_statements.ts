/**
 * What the sources state about an address, in the order they are consulted: the directory (when
 * it knows the address, its record alone answers); otherwise Gravatar and GitHub (asked together),
 * then, when they state a profile URL or a name at a company, the network cross-reference (the
 * profile by URL, or network search by name and employer). Any source that cannot answer fails
 * the whole enrichment: a partial answer is never delivered.
 */
import type { DomainContext } from "../context.ts";
import { findPersonByEmail } from "../directory/find_person_by_email.ts";
import { readPersonName } from "../find/read_person_name.ts";
import { findProfile, type ProfileLookup } from "../network_search/find_profile.ts";
import { findProfileByUrl } from "../network_search/find_profile_by_url.ts";
import type { ReverseLookupUnavailable } from "../providers/reverse_lookup/port.ts";
import type { WebSearchUnavailable } from "../providers/web_search/port.ts";
import type { Statement } from "./enrich_answer.ts";

export type StatementsRead =
  | { kind: "read"; statements: Statement[] }
  | { kind: "unavailable"; why: ReverseLookupUnavailable | WebSearchUnavailable };

export async function readStatements(ctx: DomainContext, email: string): Promise<StatementsRead> {
  const known = await findPersonByEmail(ctx.db.sql, email);
  if (known) {
    return {
      kind: "read",
      statements: [{
        source: "directory",
        url: null,
        fields: {
          name: known.fullName,
          given: known.given ?? undefined,
          surname: known.surname ?? undefined,
          title: known.title ?? undefined,
          // A company the directory knows only by its domain carries the domain as a stand-in
          // name: that would be read off the address, so it is not stated.
          companyName: known.company && known.company.name !== known.company.domain
            ? known.company.name
            : undefined,
          location: known.location ?? undefined,
          headline: known.headline ?? undefined,
          networkUrl: known.networkUrl ?? undefined,
          x: known.channels.x ?? undefined,
          telegram: known.channels.telegram ?? undefined,
          associatedEmails: known.channels.emails,
        },
      }],
    };
  }

  const answers = await Promise.all(ctx.reverseLookups.map((source) => source.lookup(email)));
  const statements: Statement[] = [];
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
  if (profile.kind === "found") {
    const { match } = profile;
    statements.push({
      source: profile.source,
      url: match.networkUrl,
      fields: {
        name: match.name,
        title: match.title ?? undefined,
        companyName: match.companyName ?? undefined,
        location: match.location ?? undefined,
        headline: match.headline ?? undefined,
        networkUrl: match.networkUrl,
      },
    });
  }
  return { kind: "read", statements };
}

/** The network cross-reference, when the sources state a profile or a name at a company. */
async function crossReference(ctx: DomainContext, statements: Statement[]): Promise<ProfileLookup> {
  const stated = (field: "networkUrl" | "name" | "companyName" | "given" | "surname") =>
    statements.map((s) => s.fields[field]?.trim()).find(Boolean);
  const networkUrl = stated("networkUrl");
  if (networkUrl) return await findProfileByUrl(ctx, networkUrl);
  const name = stated("name");
  const company = stated("companyName");
  if (!name || !company) return { kind: "none" };
  const given = stated("given");
  const surname = stated("surname");
  // The stated name is split only to search with; the split is never delivered.
  const reading = given && surname ? { given, surname } : await readPersonName(ctx, name);
  if (!reading) return { kind: "none" };
  return await findProfile(ctx, {
    firstName: reading.given.split(" ")[0],
    lastName: reading.surname,
    company,
  });
}
