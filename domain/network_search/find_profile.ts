/**
 * Network search's lookup, shared with enrich's cross-reference: the directory first (a person of
 * that name, at that employer when one is asked, with a profile URL), then the web-search provider
 * (a `site:` query on the network's profile path; each result's title and snippet read into a
 * candidate, candidates scored, the best one kept when it is strong enough). Profiles learned from
 * the web are written to the directory.
 *
 * A person on the service-wide suppression list (privacy/: the name at the asked employer's
 * domain, or the profile URL) is never a match: `none` with `suppressed`, which network search
 * answers as no match and does not bill.
 */
import type { DomainContext } from "../context.ts";
import { findPeopleByName } from "../directory/find_people_by_name.ts";
import { readPersonName } from "../find/read_person_name.ts";
import type { WebSearchUnavailable } from "../providers/web_search/port.ts";
import { profileSearchQuery } from "./network.ts";
import type { ProfileMatch } from "./profile_match.ts";
import { readProfileResult } from "./read_profile_result.ts";
import { isSuppressed } from "../privacy/is_suppressed.ts";
import { recordLearnedProfile } from "./record_learned_profile.ts";
import { type AskedPerson, MATCH_THRESHOLD, scoreCandidate } from "./score_candidate.ts";

export type ProfileLookup =
  | { kind: "found"; match: ProfileMatch; source: "directory" | string }
  /** A completed search that found no profile strong enough (or only suppressed people). */
  | { kind: "none"; suppressed?: boolean }
  | { kind: "unavailable"; why: WebSearchUnavailable };

/** How many results one web search asks for. */
const RESULTS_PER_SEARCH = 10;

export async function findProfile(ctx: DomainContext, asked: AskedPerson): Promise<ProfileLookup> {
  const askedName = `${asked.firstName} ${asked.lastName}`;
  if (
    asked.company &&
    await isSuppressed(ctx, {
      names: [{ name: askedName, domain: asked.company, company: asked.company }],
    })
  ) {
    return { kind: "none", suppressed: true };
  }
  let suppressed = false;
  const known = await findPeopleByName(ctx, {
    firstName: asked.firstName,
    lastName: asked.lastName,
    company: asked.company,
  });
  const withProfile = known.find((person) => person.networkUrl);
  if (withProfile && await isSuppressed(ctx, { profileUrls: [withProfile.networkUrl] })) {
    suppressed = true;
  } else if (withProfile) {
    return {
      kind: "found",
      source: "directory",
      match: {
        name: withProfile.fullName,
        headline: withProfile.headline,
        companyName: withProfile.company?.name ?? null,
        title: withProfile.title,
        location: withProfile.location,
        networkUrl: withProfile.networkUrl!,
      },
    };
  }
  if (!ctx.webSearch) return { kind: "none", suppressed };

  const { network } = ctx.settings;
  const answer = await ctx.webSearch.search(profileSearchQuery(asked, network), {
    count: RESULTS_PER_SEARCH,
  });
  if (answer.kind === "unavailable") return { kind: "unavailable", why: answer.why };
  let best: { match: ProfileMatch; score: number } | null = null;
  for (const result of answer.results) {
    const candidate = readProfileResult(result, network);
    if (!candidate) continue;
    const reading = await readPersonName(ctx, candidate.name);
    const score = scoreCandidate(asked, candidate, reading);
    if (score >= MATCH_THRESHOLD && (!best || score > best.score)) {
      if (await isSuppressed(ctx, { profileUrls: [candidate.networkUrl] })) {
        suppressed = true;
        continue;
      }
      best = { match: candidate, score };
    }
  }
  if (!best) return { kind: "none", suppressed };
  await recordLearnedProfile(ctx, best.match);
  return { kind: "found", match: best.match, source: ctx.webSearch.name };
}
