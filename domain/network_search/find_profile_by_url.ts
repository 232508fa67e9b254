/**
 * A profile URL → the profile: the directory first, then the web-search provider (a `site:`
 * query for that exact profile page, its result read like network search's). Find's `network`
 * mode falls back on it when the directory does not know the URL, and enrich uses it when a source
 * states a profile. Profiles learned from the web are written to the directory.
 */
import type { DomainContext } from "../context.ts";
import { findPersonByNetworkUrl } from "../directory/find_person_by_network_url.ts";
import { normalizeNetworkUrl } from "../directory/normalize.ts";
import type { ProfileLookup } from "./find_profile.ts";
import { canonicalProfileUrl } from "../shared/profile_network.ts";
import { profileUrlQuery } from "./network.ts";
import { readProfileResult } from "./read_profile_result.ts";
import { recordLearnedProfile } from "./record_learned_profile.ts";
import { isSuppressed } from "../privacy/is_suppressed.ts";

export async function findProfileByUrl(
  ctx: DomainContext,
  networkUrl: string,
): Promise<ProfileLookup> {
  const { network } = ctx.settings;
  const url = normalizeNetworkUrl(networkUrl, network);
  if (!url) return { kind: "none" };
  // A suppressed profile is neither read nor searched for (privacy/).
  if (await isSuppressed(ctx, { profileUrls: [url] })) return { kind: "none", suppressed: true };
  const known = await findPersonByNetworkUrl(ctx, url);
  if (known) {
    return {
      kind: "found",
      source: "directory",
      match: {
        name: known.fullName,
        headline: known.headline,
        companyName: known.company?.name ?? null,
        title: known.title,
        location: known.location,
        networkUrl: known.networkUrl ?? url,
      },
    };
  }
  // Only a profile page of the network can be looked up on the web; any other URL is unknown.
  if (!ctx.webSearch || canonicalProfileUrl(url, network) === null) return { kind: "none" };
  const answer = await ctx.webSearch.search(profileUrlQuery(url, network), { count: 5 });
  if (answer.kind === "unavailable") return { kind: "unavailable", why: answer.why };
  for (const result of answer.results) {
    const candidate = readProfileResult(result, network);
    if (candidate && candidate.networkUrl === url) {
      await recordLearnedProfile(ctx, candidate);
      return { kind: "found", match: candidate, source: ctx.webSearch.name };
    }
  }
  return { kind: "none" };
}
