/**
 * `POST /api/v1/domain-search`: what the service knows of a company's mail, on the shared
 * billed-call mechanism. The company (a domain, or a name or website resolved as find's `company`
 * mode resolves it), its mail as the verification engine knows it, the address pattern learned
 * from the verified addresses there, and a page of the directory's people at the company with
 * their verified addresses (within VERIFIED_EMAIL_MAX_AGE_DAYS; never a guessed one). The
 * service's own records only: no outside source is asked for people.
 *
 * Billing, as Hunter's Domain Search bills: a page that delivers at least one verified address
 * costs `domainSearch` (one part); a page without one, the pattern alone, and every refusal are
 * free. A workspace that cannot pay for a page with addresses gets the page without them
 * (`insufficient-credits`, free): the people and the pattern are never withheld.
 *
 * Left out of everything (the page, `total`, the pattern): the people `hiddenPeople` names. A
 * domain on the workspace's do-not-contact list is refused before any work. A replay under an
 * Idempotency-Key returns the stored page less anyone hidden since, or a refusal when the domain
 * was listed since (free, as every replay).
 */
import type { DomainContext } from "../context.ts";
import { type Billing, runBilledCall, type WorkOutcome } from "../billing/billed_call.ts";
import { readBalance } from "../billing/balance.ts";
import { isDoNotContact } from "../do_not_contact/is_do_not_contact.ts";
import { titleWords } from "../lead_search/lead_search_run.ts";
import { mailProviderOf } from "../verify/mod.ts";
import type {
  DomainMail,
  DomainSearchAnswer,
  DomainSearchReason,
  Organization,
} from "./domain_search_answer.ts";
import { hiddenPeople } from "./hidden_people.ts";
import { type DomainPeopleFilters, readDomainPeople } from "./read_domain_people.ts";
import { readMailPattern } from "./read_mail_pattern.ts";
import { resolveSearchDomain, type SearchTarget } from "./resolve_search_domain.ts";
import type { Department, Seniority } from "../directory/person_vocabulary.ts";

export const DOMAIN_SEARCH_SCOPE = "domain-search";
export const MAX_DOMAIN_SEARCH_PAGE = 100;
export const DEFAULT_DOMAIN_SEARCH_PAGE = 25;

export interface DomainSearchInput {
  workspaceId: string;
  idempotencyKey?: string;
  target: SearchTarget;
  department?: Department[];
  seniority?: Seniority[];
  /** Words that must all appear in a person's title. */
  title?: string;
  limit?: number;
  /** The previous page's `nextCursor`. */
  cursor?: string;
}

export type DomainSearchResult = DomainSearchAnswer & Billing;

/** The answer with what a replay needs to leave out people hidden since. */
interface Worked {
  answer: DomainSearchAnswer;
  companyId: string | null;
  personIds: string[];
}

const PAGE_PART = [{ part: "page", price: "domainSearch" as const }];
/** Refusals after which a retry with the same key runs again instead of replaying. */
const RETRYABLE: ReadonlySet<DomainSearchReason> = new Set([
  "company-lookup-unavailable",
  "do-not-contact",
  "insufficient-credits",
]);

export async function searchDomain(
  ctx: DomainContext,
  input: DomainSearchInput,
): Promise<DomainSearchResult> {
  let last: Worked | null = null;
  const result = await runBilledCall<Worked>(ctx, {
    workspaceId: input.workspaceId,
    scope: DOMAIN_SEARCH_SCOPE,
    request: {
      target: input.target,
      department: input.department ?? null,
      seniority: input.seniority ?? null,
      title: input.title ?? null,
      limit: input.limit ?? DEFAULT_DOMAIN_SEARCH_PAGE,
      cursor: input.cursor ?? null,
    },
    idempotencyKey: input.idempotencyKey,
    work: async () => {
      const outcome = await searchWork(ctx, input);
      last = outcome.answer;
      return outcome;
    },
    store: (worked) => worked,
    replay: (stored) => replayed(ctx, input.workspaceId, stored as Worked),
    reasonOf: (worked) => worked.answer.reason ?? "found",
  });
  if (result.kind === "insufficient") {
    // Another call spent the points between the check and the charge: the page without addresses.
    const answer = last ? withheld((last as Worked).answer) : refusal("insufficient-credits", null);
    return { ...answer, ...result.billing };
  }
  return { ...result.answer.answer, ...result.billing };
}

async function searchWork(
  ctx: DomainContext,
  input: DomainSearchInput,
): Promise<WorkOutcome<Worked>> {
  const refused = (reason: DomainSearchReason, organization: Organization | null) => ({
    answer: { answer: refusal(reason, organization), companyId: null, personIds: [] },
    parts: [],
    final: !RETRYABLE.has(reason),
  });
  const resolved = await resolveSearchDomain(ctx, input.target);
  if (resolved.kind === "refused") return refused(resolved.reason, resolved.organization);
  const { organization, companyId } = resolved;
  const domain = organization.domain;
  if (await isDoNotContact(ctx, { workspaceId: input.workspaceId, domain })) {
    return refused("do-not-contact", organization);
  }
  const facts = ctx.verifier.mailDomain ? await ctx.verifier.mailDomain(domain) : null;
  if (facts?.kind === "unusable") return refused("unusable-domain", organization);
  const mail: DomainMail = facts?.kind === "hosts"
    ? {
      mxRecords: facts.hosts,
      provider: facts.hosts[0] ? mailProviderOf(facts.hosts[0]) : null,
      acceptsMail: true,
      catchAll: facts.catchAll?.catchAll ?? null,
      catchAllCheckedAt: facts.catchAll?.checkedAt ?? null,
    }
    : { mxRecords: [], provider: null, acceptsMail: null, catchAll: null, catchAllCheckedAt: null };

  const hidden = companyId
    ? await hiddenPeople(ctx, { workspaceId: input.workspaceId, companyId })
    : [];
  const filters: DomainPeopleFilters = {
    department: input.department,
    seniority: input.seniority,
    title: input.title ? titleWords(input.title) : undefined,
  };
  const maxAgeMs = ctx.settings.verifiedEmailMaxAgeDays * 86_400_000;
  const [pattern, page] = await Promise.all([
    readMailPattern(ctx, { workspaceId: input.workspaceId, domain, hidden }),
    companyId
      ? readDomainPeople(ctx, {
        companyId,
        domain,
        filters,
        hidden,
        after: input.cursor ?? null,
        limit: Math.min(input.limit ?? DEFAULT_DOMAIN_SEARCH_PAGE, MAX_DOMAIN_SEARCH_PAGE),
        verifiedSince: new Date(ctx.clock.now() - maxAgeMs),
      })
      : Promise.resolve({ people: [], total: 0, next: null }),
  ]);
  const answer: DomainSearchAnswer = {
    organization,
    mail,
    ...pattern,
    people: page.people.map(({ id: _id, ...person }) => person),
    total: page.total,
    nextCursor: page.next,
    reason: page.total === 0 ? "not-found" : null,
  };
  const worked = { answer, companyId, personIds: page.people.map((p) => p.id) };
  if (!answer.people.some((person) => person.email !== null)) {
    return { answer: worked, parts: [], final: true };
  }
  // A page with addresses is billed; one the workspace cannot pay is answered without them.
  const { available } = await readBalance(ctx, input.workspaceId);
  if (available < ctx.prices.domainSearch) {
    return { answer: { ...worked, answer: withheld(answer) }, parts: [], final: false };
  }
  return { answer: worked, parts: PAGE_PART, final: true };
}

/** A stored answer, less anyone hidden since (or refused, when the domain was listed since). */
async function replayed(
  ctx: DomainContext,
  workspaceId: string,
  stored: Worked,
): Promise<Worked> {
  const domain = stored.answer.organization?.domain;
  if (domain && await isDoNotContact(ctx, { workspaceId, domain })) {
    return { ...stored, answer: refusal("do-not-contact", stored.answer.organization) };
  }
  if (!stored.companyId || stored.personIds.length === 0) return stored;
  const hidden = new Set(await hiddenPeople(ctx, { workspaceId, companyId: stored.companyId }));
  if (hidden.size === 0) return stored;
  const keep = stored.personIds.map((id) => !hidden.has(id));
  const people = stored.answer.people.filter((_, i) => keep[i]);
  return {
    ...stored,
    answer: {
      ...stored.answer,
      people,
      total: stored.answer.total - (stored.answer.people.length - people.length),
    },
    personIds: stored.personIds.filter((_, i) => keep[i]),
  };
}

function withheld(answer: DomainSearchAnswer): DomainSearchAnswer {
  return {
    ...answer,
    people: answer.people.map((person) => ({ ...person, email: null })),
    reason: "insufficient-credits",
  };
}

function refusal(
  reason: DomainSearchReason,
  organization: Organization | null,
): DomainSearchAnswer {
  return {
    organization,
    mail: null,
    pattern: null,
    patternReason: null,
    people: [],
    total: 0,
    nextCursor: null,
    reason,
  };
}
