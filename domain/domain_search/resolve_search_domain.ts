/**
 * What a domain search is about: a domain sent as such (or a website, reduced to its bare host as
 * find's `email` mode does), or a company sent by name or website, resolved as find's `company`
 * mode resolves it (the directory, then the company resolver). Then the company the directory
 * files under that domain, whose name the answer states. A free-mail or disposable domain holds
 * no company's people and is refused, as find refuses it.
 */
import type { DomainContext } from "../context.ts";
import { bareHost } from "../find/bare_host.ts";
import { personalMailDomain } from "../find/personal_mail_domain.ts";
import { resolveCompanyDomain } from "../find/resolve_company_domain.ts";
import { companyDomainOf } from "../directory/normalize.ts";
import type { DomainSearchReason, Organization } from "./domain_search_answer.ts";

export type SearchTarget = { domain: string } | { company: string };

export type ResolvedSearchDomain =
  | {
    kind: "resolved";
    organization: Organization;
    /** The directory's company at the domain; null when it has none. */
    companyId: string | null;
  }
  | { kind: "refused"; reason: DomainSearchReason; organization: Organization | null };

export async function resolveSearchDomain(
  ctx: DomainContext,
  target: SearchTarget,
): Promise<ResolvedSearchDomain> {
  let domain: string;
  let domainSource = "request";
  let name: string | null = null;
  let nameSource: string | null = null;
  const website = "domain" in target ? target.domain : websiteOf(target.company);
  if (website !== null) {
    const host = bareHost(website);
    if (host === null) return { kind: "refused", reason: "unusable-domain", organization: null };
    domain = host;
  } else {
    const resolution = await resolveCompanyDomain(ctx, (target as { company: string }).company);
    if (resolution.kind === "unavailable") {
      return { kind: "refused", reason: "company-lookup-unavailable", organization: null };
    }
    if (resolution.kind === "not-found") {
      return { kind: "refused", reason: "company-not-found", organization: null };
    }
    domain = resolution.company.domain;
    domainSource = resolution.company.source;
    name = resolution.company.name;
    nameSource = name === null ? null : resolution.company.source;
  }
  const personal = personalMailDomain(domain);
  const organization = (): Organization => ({ name, nameSource, domain, domainSource });
  if (personal !== null) return { kind: "refused", reason: personal, organization: organization() };
  // The directory files companies, and the search reads addresses, under the registrable domain
  // (`mail.acme.com` → `acme.com`).
  const registrable = companyDomainOf(domain);
  if (registrable === null) {
    return { kind: "refused", reason: "unusable-domain", organization: organization() };
  }
  domain = registrable;
  const [company] = await ctx.db.sql<{ id: string; name: string }[]>`
    SELECT id, name FROM companies WHERE domain = ${registrable}`;
  if (company && company.name !== registrable && (name === null || nameSource !== "directory")) {
    name = company.name;
    nameSource = "directory";
  }
  return { kind: "resolved", organization: organization(), companyId: company?.id ?? null };
}

/**
 * A company field that is a website or a domain (`acme.com`, `https://acme.com/about`) rather
 * than a name (`Acme Inc.`): one word with a dot that names a host.
 */
function websiteOf(company: string): string | null {
  const text = company.trim();
  if (/\s/.test(text) || !text.includes(".")) return null;
  return bareHost(text) === null ? null : text;
}
