/**
 * `POST /api/v1/enrich/email` (spec §4.5, §2.7) on the shared billed-call mechanism: an address
 * → the person behind it, from what sources state. The workspace's do-not-contact list is checked
 * before any work (nothing reaches any provider for a listed address or domain). Then the result
 * cache; then every source in order (`readStatements`: the directory, Gravatar and GitHub, the
 * network cross-reference), merged per field; what they stated is written back to the directory's
 * record of the address. If any source the enrichment needs cannot answer, nothing is delivered
 * or billed and the key is given back.
 * Billed per completed enrichment, found or not (a cached answer too). A replay under an
 * Idempotency-Key checks the list again: an address listed since is answered `do-not-contact`.
 *
 * A person on the service-wide suppression list (privacy/) is answered `do-not-contact` the same
 * way, unbilled: the address itself before any work or cache, and, after the sources answered,
 * the person they describe (another address of theirs, their profile URL, their name at the
 * address's domain), which is then neither cached nor written back.
 */
import type { DomainContext } from "../context.ts";
import { type Billing, runBilledCall, type WorkOutcome } from "../billing/billed_call.ts";
import { isDoNotContact } from "../do_not_contact/is_do_not_contact.ts";
import type { ReverseLookupUnavailable } from "../providers/reverse_lookup/port.ts";
import type { WebSearchUnavailable } from "../providers/web_search/port.ts";
import type { EnrichAddress, EnrichAnswer, EnrichReason, Statement } from "./enrich_answer.ts";
import { DOMAIN_KIND_NOTES, emailDomainKind } from "../shared/email_domain_kind.ts";
import { normalizeEmail } from "../do_not_contact/do_not_contact_entry.ts";
import { mergeStatements } from "./merge_statements.ts";
import { readStatements } from "./read_statements.ts";
import { writeBackEnrichment } from "./write_back_enrichment.ts";
import { isSuppressed } from "../privacy/is_suppressed.ts";
import { companyDomainOf } from "../directory/normalize.ts";

export const ENRICH_SCOPE = "enrich";

export type EnrichResult = EnrichAnswer & Billing;

export async function enrichEmail(
  ctx: DomainContext,
  input: { workspaceId: string; idempotencyKey?: string; email: string },
): Promise<EnrichResult> {
  // The normal form the do-not-contact list uses too (IDN domains in ASCII); null: malformed.
  const normal = normalizeEmail(input.email);
  const email = normal ?? input.email.trim().toLowerCase();
  const result = await runBilledCall<EnrichAnswer>(ctx, {
    workspaceId: input.workspaceId,
    scope: ENRICH_SCOPE,
    request: { email },
    idempotencyKey: input.idempotencyKey,
    worstCase: ctx.prices.enrich,
    work: () => enrichWork(ctx, { workspaceId: input.workspaceId, email: input.email }),
    store: (answer) => answer,
    reasonOf: (answer) => answer.reason ?? "found",
    // The list may have grown since: a replay never delivers a person listed now (free, as
    // every replay; `replay` stays true: it answers the earlier call with this key).
    replay: async (stored) =>
      normal !== null && (
          await isDoNotContact(ctx, { workspaceId: input.workspaceId, email }) ||
          await isSuppressed(ctx, personOf(stored as EnrichAnswer, email))
        )
        ? refused(email, "do-not-contact")
        : stored as EnrichAnswer,
  });
  if (result.kind === "insufficient") {
    return { ...refused(email, "insufficient-credits"), ...result.billing };
  }
  return { ...result.answer, ...result.billing };
}

const ENRICH_PART = [{ part: "enrich", price: "enrich" as const }];

/**
 * The enrichment itself, with the part it makes billable: the single call bills it through
 * `runBilledCall`, a bulk job's row from its job's reservation (domain/bulk/answer_bulk_row.ts).
 */
export async function enrichWork(
  ctx: DomainContext,
  input: { workspaceId: string; email: string },
): Promise<WorkOutcome<EnrichAnswer>> {
  const normal = normalizeEmail(input.email);
  const email = normal ?? input.email.trim().toLowerCase();
  if (normal === null) {
    return { answer: refused(email, "invalid-input"), parts: [], final: false };
  }
  if (
    await isDoNotContact(ctx, { workspaceId: input.workspaceId, email }) ||
    await isSuppressed(ctx, { emails: [email] })
  ) {
    return { answer: refused(email, "do-not-contact"), parts: [], final: false };
  }
  const cached = await ctx.resultCache.get<EnrichAnswer>(ENRICH_SCOPE, { email });
  if (cached && !(await isSuppressed(ctx, personOf(cached, email)))) {
    return { answer: { ...cached, cached: true }, parts: ENRICH_PART, final: true };
  }
  const read = await readStatements(ctx, email);
  if (read.kind === "unavailable") {
    return { answer: refused(email, reasonOf(read.why)), parts: [], final: false };
  }
  const now = new Date(ctx.clock.now()).toISOString();
  const answer = answerOf(email, read.statements, now);
  if (await isSuppressed(ctx, personOf(answer, email))) {
    ctx.logger.info("write-back skipped: the person is suppressed", { operation: "enrich" });
    ctx.telemetry.count({ kind: "suppressed_write_back", operation: "enrich" });
    return { answer: refused(email, "do-not-contact"), parts: [], final: false };
  }
  if (read.person && read.consulted) {
    await writeBackEnrichment(ctx, { person: read.person, answer, enrichedAt: now });
  }
  await ctx.resultCache.set(ENRICH_SCOPE, { email }, answer);
  return { answer, parts: ENRICH_PART, final: true };
}

/** Every identifier of the person an answer describes, for the suppression list. */
function personOf(answer: EnrichAnswer | null, email: string) {
  const domain = companyDomainOf(email);
  const person = answer?.person;
  return {
    emails: [email, ...(answer?.channels?.emails ?? [])],
    profileUrls: [person?.networkUrl],
    names: person?.name && domain ? [{ name: person.name, domain }] : [],
  };
}

function answerOf(email: string, statements: Statement[], retrievedAt: string): EnrichAnswer {
  const { person, channels, sources } = mergeStatements(email, statements, retrievedAt);
  return {
    found: person !== null,
    email,
    person,
    channels,
    sources,
    address: addressOf(email),
    reason: person ? null : "not-found",
    cached: false,
  };
}

function refused(email: string, reason: EnrichReason): EnrichAnswer {
  return {
    found: false,
    email,
    person: null,
    channels: null,
    sources: [],
    address: normalizeEmail(email) ? addressOf(email) : null,
    reason,
    cached: false,
  };
}

function addressOf(email: string): EnrichAddress {
  const kind = emailDomainKind(email.slice(email.lastIndexOf("@") + 1));
  return { kind, note: DOMAIN_KIND_NOTES[kind] };
}

/** The kind of failure, never the provider's text. */
function reasonOf(why: ReverseLookupUnavailable | WebSearchUnavailable): EnrichReason {
  switch (why) {
    case "rate-limited":
      return "source-rate-limited";
    case "timeout":
      return "source-timeout";
    case "bad-key":
    case "provider-error":
      return "source-error";
  }
}
