/**
 * `POST /api/v1/find` (spec §4.3, §2.5, §4.10): a verified work email from a name and a domain
 * (`email`), a name and a company name (`company`), or a profile URL (`network`: the directory,
 * then the web-search provider when one is configured), on the shared
 * billed-call mechanism. Every outcome is an answer; `found` is true only for an address a mail
 * server accepted on a domain that is not catch-all, or one our directory verified recently.
 *
 * Billing: the email part once the email search completes (found, `not-found`, `catch-all`); in
 * `company` mode also the company part once the name search answers (resolved or
 * `company-not-found`). Nothing for `invalid-input`, `insufficient-credits`, `unusable-domain`
 * (no email search ran), `free-mail-domain` and `disposable-domain` (refused before any DNS or
 * SMTP: no work email lives at such a domain; in `company` mode the company part is billed, as
 * for `unusable-domain`), `do-not-contact` (refused before any DNS or SMTP, in every mode: the
 * company part neither), `profile-not-found`, or a provider that could not answer
 * (`verification-unavailable`): those give the Idempotency-Key back, except the final
 * `unusable-domain`, `free-mail-domain`, `disposable-domain` and `profile-not-found`, which replay.
 */
import type { DomainContext } from "../context.ts";
import type { BillablePart, Billing, WorkOutcome } from "../billing/billed_call.ts";
import { runBilledCall } from "../billing/billed_call.ts";
import { findPersonByNetworkUrl } from "../directory/find_person_by_network_url.ts";
import { normalizeNetworkUrl } from "../directory/normalize.ts";
import { findProfileByUrl } from "../network_search/find_profile_by_url.ts";
import {
  type FindAnswer,
  type FindMode,
  type FindReason,
  notFound,
  type ResolvedCompany,
} from "./find_answer.ts";
import { lookupEmailAtDomain } from "./lookup_email_at_domain.ts";
import { readPersonName } from "./read_person_name.ts";
import { isSuppressed } from "../privacy/is_suppressed.ts";
import { resolveCompanyDomain } from "./resolve_company_domain.ts";

export const FIND_SCOPE = "find";

export type FindInput =
  | { mode: "email"; name: string; domain: string }
  | { mode: "company"; name: string; companyName: string }
  | { mode: "network"; networkUrl: string };

export type FoundEmail = FindAnswer & Billing & { creditsCharged: number };

const EMAIL_PART: BillablePart = { part: "email", price: "findEmail" };
const COMPANY_PART: BillablePart = { part: "company", price: "findCompany" };

/** Reasons after which a retry with the same key runs again instead of replaying. */
const RETRYABLE: ReadonlySet<FindReason> = new Set([
  "verification-unavailable",
  "invalid-input",
  // the list may change: like enrich's refusal, a retry asks it again
  "do-not-contact",
]);

export async function findWorkEmail(
  ctx: DomainContext,
  input: { workspaceId: string; idempotencyKey?: string; find: FindInput },
): Promise<FoundEmail> {
  const { find } = input;
  const result = await runBilledCall<FindAnswer>(ctx, {
    workspaceId: input.workspaceId,
    scope: FIND_SCOPE,
    request: find,
    idempotencyKey: input.idempotencyKey,
    worstCase: findWorstCase(ctx, find.mode),
    work: () => lookupFind(ctx, input.workspaceId, find),
    store: (answer) => answer,
    replay: (stored) => stored as FindAnswer,
    reasonOf: (answer) => answer.found ? "found" : answer.reason ?? "not-found",
  });
  if (result.kind === "insufficient") {
    return {
      ...notFound("insufficient-credits", "unknown"),
      ...result.billing,
      creditsCharged: result.billing.pointsCharged,
    };
  }
  return {
    ...result.answer,
    ...result.billing,
    creditsCharged: result.billing.pointsCharged,
  };
}

/** The most a lookup of this mode may cost: it is refused before any provider work below it. */
export function findWorstCase(ctx: Pick<DomainContext, "prices">, mode: FindMode): number {
  return mode === "company" ? ctx.prices.findCompany + ctx.prices.findEmail : ctx.prices.findEmail;
}

function outcome(answer: FindAnswer, parts: BillablePart[]): WorkOutcome<FindAnswer> {
  return { answer, parts, final: answer.reason === null || !RETRYABLE.has(answer.reason) };
}

/**
 * The lookup itself, with the parts it makes billable: the single call bills them through
 * `runBilledCall`, a bulk job's row from its job's reservation (domain/bulk/answer_bulk_row.ts).
 */
export async function lookupFind(
  ctx: DomainContext,
  workspaceId: string,
  find: FindInput,
): Promise<WorkOutcome<FindAnswer>> {
  switch (find.mode) {
    case "email":
      return await lookupByDomain(ctx, workspaceId, find.name, find.domain);
    case "company":
      return await lookupByCompany(ctx, workspaceId, find.name, find.companyName);
    case "network":
      return await lookupByProfile(ctx, workspaceId, find.networkUrl);
  }
}

async function lookupByDomain(
  ctx: DomainContext,
  workspaceId: string,
  fullName: string,
  domain: string,
): Promise<WorkOutcome<FindAnswer>> {
  const company = { name: null, domain, source: "request" };
  const name = await readPersonName(ctx, fullName);
  if (!name) return outcome(notFound("invalid-input", "unknown", { company }), []);
  const email = await lookupEmailAtDomain(ctx, {
    workspaceId,
    fullName,
    name,
    domain,
    companyName: null,
  });
  return outcome({ ...email.answer, company }, email.completed ? [EMAIL_PART] : []);
}

async function lookupByCompany(
  ctx: DomainContext,
  workspaceId: string,
  fullName: string,
  companyName: string,
): Promise<WorkOutcome<FindAnswer>> {
  const name = await readPersonName(ctx, fullName);
  if (!name) return outcome(notFound("invalid-input", "unknown"), []);
  const resolution = await resolveCompanyDomain(ctx, companyName);
  if (resolution.kind === "unavailable") {
    return outcome(notFound("verification-unavailable", "unknown"), []);
  }
  if (resolution.kind === "not-found") {
    return outcome(notFound("company-not-found", "unknown"), [COMPANY_PART]);
  }
  const { company } = resolution;
  const email = await lookupEmailAtDomain(ctx, {
    workspaceId,
    fullName,
    name,
    domain: company.domain,
    companyName: company.name ?? companyName,
  });
  // A do-not-contact refusal is never billed, not even the company part.
  const parts = email.completed
    ? [COMPANY_PART, EMAIL_PART]
    : email.answer.reason === "do-not-contact"
    ? []
    : [COMPANY_PART];
  return outcome({ ...email.answer, company }, parts);
}

async function lookupByProfile(
  ctx: DomainContext,
  workspaceId: string,
  networkUrl: string,
): Promise<WorkOutcome<FindAnswer>> {
  // A profile of the configured network is looked up in its canonical form (any subdomain,
  // language version or query); another URL as written.
  const url = normalizeNetworkUrl(networkUrl, ctx.settings.network) ?? networkUrl;
  // A suppressed profile is refused before the directory or the web is asked (never billed).
  if (await isSuppressed(ctx, { profileUrls: [url] })) {
    return outcome(notFound("do-not-contact", "unknown"), []);
  }
  let person = await findPersonByNetworkUrl(ctx, url);
  if (!person) {
    // Not in the directory: the web-search provider may know the profile page. What it learns is
    // written to the directory, so it is read back from there.
    const learned = await findProfileByUrl(ctx, url);
    if (learned.kind === "unavailable") {
      return outcome(notFound("verification-unavailable", "unknown"), []);
    }
    if (learned.kind === "none") return outcome(notFound("profile-not-found", "unknown"), []);
    person = await findPersonByNetworkUrl(ctx, learned.match.networkUrl);
    if (!person) return outcome(notFound("profile-not-found", "unknown"), []);
  }
  const resolvedProfile = {
    networkUrl: person.networkUrl ?? url,
    name: person.fullName,
    headline: person.headline,
    title: person.title,
    companyName: person.company?.name ?? null,
    companyDomain: person.company?.domain ?? null,
    location: person.location,
  };
  const name = person.given && person.surname
    ? { given: person.given, surname: person.surname }
    : await readPersonName(ctx, person.fullName);
  if (!name) return outcome(notFound("invalid-input", "unknown", { resolvedProfile }), []);

  let company: ResolvedCompany | null = person.company?.domain
    ? { name: person.company.name, domain: person.company.domain, source: "directory" }
    : null;
  if (!company && person.company?.name) {
    const resolution = await resolveCompanyDomain(ctx, person.company.name);
    if (resolution.kind === "unavailable") {
      return outcome(notFound("verification-unavailable", "unknown", { resolvedProfile }), []);
    }
    if (resolution.kind === "resolved") company = resolution.company;
  }
  if (!company) {
    return outcome(notFound("company-not-found", "unknown", { resolvedProfile }), []);
  }
  const email = await lookupEmailAtDomain(ctx, {
    workspaceId,
    fullName: person.fullName,
    name,
    domain: company.domain,
    companyName: company.name,
    person,
  });
  // Nothing about a listed person is delivered, not even the profile the directory holds.
  if (email.answer.reason === "do-not-contact") return outcome({ ...email.answer, company }, []);
  return outcome(
    {
      ...email.answer,
      resolvedProfile: { ...resolvedProfile, companyDomain: company.domain },
      company,
    },
    email.completed ? [EMAIL_PART] : [],
  );
}
