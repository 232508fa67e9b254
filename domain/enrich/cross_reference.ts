/**
 * Enrich's last source, the network cross-reference: when the sources before it state a profile
 * URL, that profile (the directory, then the web search); otherwise, when they state a name at a
 * company, network search by that name and employer.
 */
import type { DomainContext } from "../context.ts";
import { readPersonName } from "../find/read_person_name.ts";
import { findProfile, type ProfileLookup } from "../network_search/find_profile.ts";
import { findProfileByUrl } from "../network_search/find_profile_by_url.ts";
import type { Statement } from "./enrich_answer.ts";

export async function crossReference(
  ctx: DomainContext,
  statements: Statement[],
): Promise<ProfileLookup> {
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

/** A profile the cross-reference found, as its statement. */
export function profileStatement(profile: Extract<ProfileLookup, { kind: "found" }>): Statement {
  const { match } = profile;
  return {
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
  };
}
