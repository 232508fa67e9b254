/**
 * Company name → mail domain for find's `company` mode: the directory first (names and aliases,
 * case and legal suffixes ignored), then the outside resolver (`COMPANY_RESOLVER`).
 */
import type { DomainContext } from "../context.ts";
import { findCompanyByName } from "../directory/find_company_by_name.ts";
import type { ResolvedCompany } from "./find_answer.ts";

export type CompanyDomainResolution =
  | { kind: "resolved"; company: ResolvedCompany }
  | { kind: "not-found" }
  /** The outside resolver could not answer: nothing is billed. */
  | { kind: "unavailable" };

export async function resolveCompanyDomain(
  ctx: DomainContext,
  companyName: string,
): Promise<CompanyDomainResolution> {
  const known = await findCompanyByName(ctx, companyName);
  if (known?.domain) {
    return {
      kind: "resolved",
      company: { name: known.name, domain: known.domain, source: "directory" },
    };
  }
  const resolution = await ctx.companyResolver.resolve(companyName);
  switch (resolution.kind) {
    case "resolved":
      return {
        kind: "resolved",
        company: { name: resolution.name, domain: resolution.domain, source: resolution.source },
      };
    case "not-found":
      return { kind: "not-found" };
    case "unavailable":
      return { kind: "unavailable" };
  }
}
