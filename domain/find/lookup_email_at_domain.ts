/**
 * The email part of every find lookup: a person's name at a mail domain → a verified address,
 * or a reason. The directory answers first (an address of this person verified within
 * `VERIFIED_EMAIL_MAX_AGE_DAYS`, no SMTP); otherwise the candidates, ordered by the patterns this
 * domain's known addresses follow, go to the verifier (one SMTP session, or the remote verifier).
 * An accepted address is written back to the directory.
 *
 * Refused before any of that (no directory read, no DNS, no SMTP, `completed` false): a free-mail or
 * disposable domain (`free-mail-domain`, `disposable-domain`: no work email lives there). Refused
 * before any DNS or SMTP: a person the workspace's do-not-contact list names (`do-not-contact`: the
 * domain or a parent of it, this person's known address, or any candidate address is listed), so
 * a listed address is never asked about, delivered or written back. A person on the service-wide
 * suppression list (privacy/: by this name at this domain, their profile URL, any address they
 * hold, or any candidate) is refused the same way, before any DNS or SMTP: `do-not-contact`.
 */
import type { DomainContext } from "../context.ts";
import type { DirectoryPerson } from "../directory/directory_person.ts";
import { findPersonAtDomain } from "../directory/find_person_at_domain.ts";
import { recordVerifiedEmail } from "../directory/record_verified_email.ts";
import { verifiedAddressesAtDomain } from "../directory/verified_addresses_at_domain.ts";
import { isDoNotContact } from "../do_not_contact/is_do_not_contact.ts";
import { isSuppressed } from "../privacy/is_suppressed.ts";
import { emailCandidates } from "./email_candidates.ts";
import { keepCandidateOrder, keptCandidateOrder } from "./candidate_order_memory.ts";
import { personalMailDomain } from "./personal_mail_domain.ts";
import { isRoleMailbox } from "./role_mailbox.ts";
import { type PersonName, rankPatterns } from "./email_patterns.ts";
import {
  DIRECTORY_VALID_CONFIDENCE,
  type FindAnswer,
  type FoundPerson,
  notFound,
  SMTP_VALID_CONFIDENCE,
} from "./find_answer.ts";

export interface EmailLookupInput {
  /** The workspace whose do-not-contact list applies. */
  workspaceId: string;
  fullName: string;
  name: PersonName;
  domain: string;
  companyName: string | null;
  /** The person when the caller already resolved them (network mode); else looked up here. */
  person?: DirectoryPerson | null;
}

export interface EmailLookup {
  /** The answer's email fields and the person, without company or profile. */
  answer: FindAnswer;
  /** True when the lookup ran to an outcome that is billed (found or not). */
  completed: boolean;
}

/** How many verified addresses of a domain are read to learn its patterns. */
const PATTERN_EXAMPLES = 50;

export async function lookupEmailAtDomain(
  ctx: DomainContext,
  input: EmailLookupInput,
): Promise<EmailLookup> {
  const { domain, name } = input;
  const personal = personalMailDomain(domain);
  if (personal) return { completed: false, answer: notFound(personal, "unknown") };
  const person = input.person !== undefined ? input.person : await findPersonAtDomain(ctx, {
    fullName: input.fullName,
    given: name.given,
    surname: name.surname,
    domain,
  });
  const found = foundPerson(input, person);
  if (
    await isSuppressed(ctx, {
      names: [
        { name: input.fullName, domain },
        { name: `${name.given} ${name.surname}`, domain },
        ...(person ? [{ name: person.fullName, domain }] : []),
      ],
      profileUrls: [person?.networkUrl],
      emails: person?.emails.map((e) => e.address) ?? [],
    })
  ) {
    return { completed: false, answer: notFound("do-not-contact", "unknown") };
  }

  // A shared role mailbox (`info@`) on a person's record is never delivered or asked as theirs.
  const known =
    person?.emails.filter((e) => e.address.endsWith(`@${domain}`) && !isRoleMailbox(e.address)) ??
      [];
  const maxAgeMs = ctx.settings.verifiedEmailMaxAgeDays * 86_400_000;
  const recent = known.find((e) =>
    e.status === "valid" && e.verifiedAt !== null &&
    ctx.clock.now() - Date.parse(e.verifiedAt) <= maxAgeMs
  );
  if (recent) {
    if (await doNotContact(ctx, input, known.map((e) => e.address))) {
      return { completed: false, answer: notFound("do-not-contact", "unknown") };
    }
    return {
      completed: true,
      answer: {
        found: true,
        email: recent.address,
        status: "valid",
        confidence: DIRECTORY_VALID_CONFIDENCE,
        person: found,
        resolvedProfile: null,
        company: null,
        verification: {
          method: "directory",
          mxHost: null,
          provider: null,
          smtpCode: null,
          enhancedStatus: null,
          encrypted: null,
          certificateVerified: null,
          checkedAt: recent.verifiedAt!,
        },
        reason: null,
      },
    };
  }

  // A person greylisted before is asked in the order of that call: the same recipients.
  const preferred = await keptCandidateOrder(ctx, name, domain) ??
    rankPatterns(await verifiedAddressesAtDomain(ctx, { domain, limit: PATTERN_EXAMPLES }));
  const guesses = emailCandidates(name, domain, { preferred });
  // This person's own addresses we know of (not recently verified) are asked first.
  const candidates = [
    ...new Set([
      ...known.filter((e) => e.status !== "invalid").map((e) => e.address),
      ...guesses.map((c) => c.address),
    ]),
  ];
  if (candidates.length === 0) {
    return { completed: false, answer: notFound("invalid-input", "unknown", { person: found }) };
  }
  if (await doNotContact(ctx, input, candidates)) {
    return { completed: false, answer: notFound("do-not-contact", "unknown") };
  }

  const outcome = await ctx.verifier.verify({ domain, candidates });
  switch (outcome.kind) {
    case "valid": {
      // Suppressed while the session ran (an erasure, an opt-out): neither written back nor
      // delivered, and not billed.
      if (await isSuppressed(ctx, { emails: [outcome.address] })) {
        ctx.logger.info("write-back skipped: the person is suppressed", { operation: "find" });
        ctx.telemetry.count({ kind: "suppressed_write_back", operation: "find" });
        return { completed: false, answer: notFound("do-not-contact", "unknown") };
      }
      await recordVerifiedEmail(ctx, {
        fullName: input.fullName,
        given: name.given,
        surname: name.surname,
        domain,
        companyName: input.companyName,
        address: outcome.address,
        status: "valid",
        verifiedAt: new Date(outcome.evidence.checkedAt),
      }).catch(() => ctx.logger.warn("verified address could not be written to the directory"));
      return {
        completed: true,
        answer: {
          found: true,
          email: outcome.address,
          status: "valid",
          confidence: SMTP_VALID_CONFIDENCE,
          person: found,
          resolvedProfile: null,
          company: null,
          verification: { method: "smtp", ...outcome.evidence },
          reason: null,
        },
      };
    }
    case "rejected":
      return {
        completed: true,
        answer: notFound("not-found", "invalid", {
          person: found,
          verification: { method: "smtp", ...outcome.evidence },
        }),
      };
    case "catch-all":
      return {
        completed: true,
        answer: notFound("catch-all", "catch-all", {
          person: found,
          verification: { method: "smtp", ...outcome.evidence },
        }),
      };
    case "unusable-domain":
      // No email search could run: not billed (spec §4.10).
      return {
        completed: false,
        answer: notFound("unusable-domain", "invalid", { person: found }),
      };
    case "unavailable":
      if (outcome.why === "greylisted") await keepCandidateOrder(ctx, name, domain, preferred);
      return {
        completed: false,
        answer: notFound("verification-unavailable", "unknown", {
          person: found,
          verification: outcome.evidence ? { method: "smtp", ...outcome.evidence } : null,
          ...(outcome.retryAfterSeconds ? { retryAfterSeconds: outcome.retryAfterSeconds } : {}),
        }),
      };
  }
}

/**
 * Whether the do-not-contact list names the domain (or a parent) or any of these addresses, or
 * the suppression list names any of them.
 */
async function doNotContact(
  ctx: DomainContext,
  input: EmailLookupInput,
  emails: readonly string[],
): Promise<boolean> {
  return await isDoNotContact(ctx, {
    workspaceId: input.workspaceId,
    domain: input.domain,
    emails,
  }) || await isSuppressed(ctx, { emails });
}

function foundPerson(input: EmailLookupInput, person: DirectoryPerson | null): FoundPerson {
  return {
    name: person?.fullName ?? input.fullName,
    given: person?.given ?? input.name.given,
    surname: person?.surname ?? input.name.surname,
    title: person?.title ?? null,
    companyName: person?.company?.name ?? input.companyName,
    companyDomain: input.domain,
    location: person?.location ?? null,
    networkUrl: person?.networkUrl ?? null,
  };
}
