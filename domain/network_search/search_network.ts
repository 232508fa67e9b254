/**
 * `POST /api/v1/network-search` (spec §4.4, §2.6) on the shared billed-call mechanism: at most
 * one public profile for a first and last name (and an employer, when given). Billed per completed
 * search, matches or none (a cached answer is a completed search too); a provider that cannot
 * answer gives empty `matches`, `reason` `search-unavailable`, nothing billed, and the key back.
 * A search whose only match is a person on the service-wide suppression list (privacy/) answers
 * no match, unbilled and uncached, the key given back.
 */
import type { DomainContext } from "../context.ts";
import { type Billing, runBilledCall } from "../billing/billed_call.ts";
import { findProfile } from "./find_profile.ts";
import type { ProfileMatch } from "./profile_match.ts";
import type { AskedPerson } from "./score_candidate.ts";
import { isSuppressed } from "../privacy/is_suppressed.ts";

export const NETWORK_SEARCH_SCOPE = "network-search";

export type NetworkSearchReason = "search-unavailable" | "insufficient-credits";

export interface NetworkSearchAnswer {
  matches: ProfileMatch[];
  reason: NetworkSearchReason | null;
  cached: boolean;
}

export type NetworkSearchResult = NetworkSearchAnswer & Billing & { creditsCharged: number };

export async function searchNetwork(
  ctx: DomainContext,
  input: { workspaceId: string; idempotencyKey?: string; search: AskedPerson },
): Promise<NetworkSearchResult> {
  const { search } = input;
  const part = [{ part: "search", price: "networkSearch" as const }];
  const result = await runBilledCall<NetworkSearchAnswer>(ctx, {
    workspaceId: input.workspaceId,
    scope: NETWORK_SEARCH_SCOPE,
    request: search,
    idempotencyKey: input.idempotencyKey,
    worstCase: ctx.prices.networkSearch,
    work: async () => {
      const cached = await ctx.resultCache.get<ProfileMatch[]>(NETWORK_SEARCH_SCOPE, search);
      const cachedSuppressed = cached !== null &&
        await isSuppressed(ctx, { profileUrls: cached.map((m) => m.networkUrl) });
      if (cached && !cachedSuppressed) {
        return {
          answer: { matches: cached, reason: null, cached: true },
          parts: part,
          final: true,
        };
      }
      const lookup = await findProfile(ctx, search);
      if (lookup.kind === "unavailable") {
        return {
          answer: { matches: [], reason: "search-unavailable", cached: false },
          parts: [],
          final: false,
        };
      }
      if (lookup.kind === "none" && lookup.suppressed) {
        return { answer: { matches: [], reason: null, cached: false }, parts: [], final: false };
      }
      const matches = lookup.kind === "found" ? [lookup.match] : [];
      await ctx.resultCache.set(NETWORK_SEARCH_SCOPE, search, matches);
      return { answer: { matches, reason: null, cached: false }, parts: part, final: true };
    },
    store: (answer) => answer,
    replay: (stored) => stored as NetworkSearchAnswer,
    reasonOf: (answer) => answer.reason ?? (answer.matches.length > 0 ? "found" : "no-match"),
  });
  if (result.kind === "insufficient") {
    return {
      matches: [],
      reason: "insufficient-credits",
      cached: false,
      ...result.billing,
      creditsCharged: result.billing.pointsCharged,
    };
  }
  return { ...result.answer, ...result.billing, creditsCharged: result.billing.pointsCharged };
}
