/** Request and answer schemas of `POST /api/v1/find` (spec §2.5, §4.3). */
import { z } from "@hono/zod-openapi";
import { ServiceError } from "../../domain/errors.ts";
import { bareHost } from "../../domain/find/bare_host.ts";
import {
  EMAIL_STATUSES,
  FIND_MODES,
  FIND_REASONS,
  type FindMode,
} from "../../domain/find/find_answer.ts";
import type { FindInput } from "../../domain/find/find_work_email.ts";
import { MAIL_PROVIDERS } from "../../domain/verify/mod.ts";
import {
  controlCharacterMessage,
  hasAnyControlCharacter,
} from "../../domain/shared/control_characters.ts";
import {
  CreditsChargedField,
  LookupBillingFields,
  maxCharacters,
  NO_CONTROL_AT_ALL,
  NOT_BLANK_NO_CONTROL_AT_ALL,
} from "../schemas.ts";

/** One line of text: every control character (C0 with tab and line breaks, DEL, C1) is refused. */
const text = (field: string, max: number) =>
  maxCharacters(
    z.string({ error: `${field} must be a string` }),
    max,
    `${field} must be at most ${max} characters`,
  )
    .refine((value) => !hasAnyControlCharacter(value), controlCharacterMessage(field))
    .openapi({ pattern: NO_CONTROL_AT_ALL })
    .optional();

/**
 * What `toFindInput` requires of each mode, for the document (JSON Schema `if`/`then`/`else`):
 * `network` needs an http(s) `networkUrl`; any other mode needs a non-blank `name` and `company`,
 * and `email` mode (the default, and any unknown mode) a company that names a host.
 */
const HOST_LABEL = "(?![xX][nN]--)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
/**
 * A host of at most 253 characters with a letter-led top label (so never an IP address),
 * optionally as a website URL.
 */
const COMPANY_HOST =
  `^(?:[hH][tT][tT][pP][sS]?://)?(?=[^/?#]{1,253}(?:[/?#]|$))(?:${HOST_LABEL}\\.)+[A-Za-z]{2,63}\\.?(?:[/?#][^\\s]*)?$`;
const PROFILE_URL =
  `^[hH][tT][tT][pP][sS]?://(?:${HOST_LABEL}\\.)*[A-Za-z][A-Za-z0-9-]{0,62}(?::[0-9]{1,4})?(?:[/?#][^\\s]*)?$`;
/**
 * A branch names every field (the ones it does not constrain as `{}`): linters that check
 * examples with `unevaluatedProperties: false` judge each branch on its own.
 */
const branch = (required: string[], constrained: Record<string, unknown>) => ({
  ...(required.length > 0 ? { required } : {}),
  properties: { mode: {}, name: {}, company: {}, networkUrl: {}, ...constrained },
});
const modeIs = (mode: FindMode) => ({
  required: ["mode"],
  properties: { mode: { const: mode }, name: {}, company: {}, networkUrl: {} },
});
const FIND_MODE_RULES = {
  if: modeIs("network"),
  then: branch(["networkUrl"], { networkUrl: { pattern: PROFILE_URL } }),
  else: {
    ...branch(["name", "company"], { name: { pattern: NOT_BLANK_NO_CONTROL_AT_ALL } }),
    if: modeIs("company"),
    then: branch([], { company: { pattern: NOT_BLANK_NO_CONTROL_AT_ALL } }),
    else: branch([], { company: { pattern: COMPANY_HOST } }),
  },
};

export const FindBodySchema = z.object({
  mode: z.string({ error: "mode must be a string" }).optional().openapi({
    enum: [...FIND_MODES],
    description:
      "`email` (default): name + company domain. `company`: name + company name. `network`: a profile URL. The service treats any other value as `email`",
    example: "email",
  }),
  name: text("name", 256).openapi({
    description:
      "The person's full name; required, not blank, in modes `email` and `company`. One line: any control character (tab, CR, LF, other C0, DEL, C1) is a validation_error, as in `company` and `networkUrl`",
    example: "Ada Lovelace",
  }),
  company: text("company", 256).openapi({
    description:
      "Required in modes `email` and `company`. `email` mode: the company's domain or website URL (reduced to its bare host, e.g. `https://www.acme.com/about` → `acme.com`; a name that is itself a public suffix, such as `co.uk`, names no company and is refused). `company` mode: the company's name",
    example: "acme.com",
  }),
  networkUrl: text("networkUrl", 2048).openapi({
    description:
      "Required in `network` mode: the person's http(s) professional-network profile URL",
    example: "https://www.linkedin.com/in/ada-lovelace",
  }),
}).openapi("FindRequest", {
  example: { mode: "email", name: "Ada Lovelace", company: "acme.com" },
  ...FIND_MODE_RULES,
});

type FindBody = z.infer<typeof FindBodySchema>;

/** The lookup a valid body asks for; a missing field of its mode is a validation_error. */
export function toFindInput(body: FindBody): FindInput {
  const mode: FindMode = body.mode === "company" || body.mode === "network" ? body.mode : "email";
  const required = (field: "name" | "company" | "networkUrl") => {
    const value = body[field]?.trim();
    if (!value) throw new ServiceError("validation_error", `${field} is required in ${mode} mode`);
    return value;
  };
  switch (mode) {
    case "network": {
      const networkUrl = required("networkUrl");
      if (!URL.canParse(networkUrl) || !/^https?:$/.test(new URL(networkUrl).protocol)) {
        throw new ServiceError("validation_error", "networkUrl must be an http(s) URL");
      }
      return { mode, networkUrl };
    }
    case "company":
      return { mode, name: required("name"), companyName: required("company") };
    case "email": {
      const name = required("name");
      const domain = bareHost(required("company"));
      if (!domain) {
        throw new ServiceError(
          "validation_error",
          "company must be a domain or website URL in email mode (send a company name with mode company)",
        );
      }
      return { mode, name, domain };
    }
  }
}

const PersonSchema = z.object({
  name: z.string(),
  given: z.string().nullable(),
  surname: z.string().nullable(),
  title: z.string().nullable(),
  companyName: z.string().nullable(),
  companyDomain: z.string().nullable(),
  location: z.string().nullable(),
  networkUrl: z.string().nullable(),
}).openapi("FindPerson", {
  description:
    "The person the lookup is about: our directory's record when it knows them, else the name as read (given/surname) at the searched domain",
});

const ResolvedProfileSchema = z.object({
  networkUrl: z.string(),
  name: z.string(),
  headline: z.string().nullable(),
  title: z.string().nullable(),
  companyName: z.string().nullable(),
  companyDomain: z.string().nullable(),
  location: z.string().nullable(),
}).openapi("ResolvedProfile", {
  description: "`network` mode: the profile the URL resolved to",
});

const ResolvedCompanySchema = z.object({
  name: z.string().nullable(),
  domain: z.string(),
  source: z.string().openapi({
    description:
      "`request` (email mode), `directory` (our records) or `wikidata:Q…` (the Wikidata item whose official website gave the domain)",
  }),
}).openapi("ResolvedCompany", { description: "The mail domain searched, and where it came from" });

export const VerificationSchema = z.object({
  method: z.enum(["smtp", "directory"]).openapi({
    description:
      "`smtp`: a mail server answered now; `directory`: our records hold a verification within VERIFIED_EMAIL_MAX_AGE_DAYS",
  }),
  mxHost: z.string().nullable().openapi({
    description: "The MX host that gave the deciding reply",
  }),
  provider: z.enum(MAIL_PROVIDERS).nullable().openapi({
    description:
      "Who runs the MX host, read from its name (`aspmx.l.google.com` → google, `*.mail.protection.outlook.com` → microsoft, `*.pphosted.com` → proofpoint, …; `other` when unknown). Gateways may accept every recipient: the catch-all probe tells. Null without an MX host",
    example: "google",
  }),
  smtpCode: z.number().int().nullable().openapi({ description: "Its reply code", example: 250 }),
  enhancedStatus: z.string().nullable().openapi({
    description: "Its enhanced status code",
    example: "2.1.5",
  }),
  encrypted: z.boolean().nullable().openapi({
    description:
      "Whether the SMTP session ran over TLS (STARTTLS, opportunistic as between mail servers); null when no session was held",
  }),
  certificateVerified: z.boolean().nullable().openapi({
    description:
      "Whether that TLS session's certificate chained to a trusted root for the MX name; TLS is used either way. Null without TLS",
  }),
  checkedAt: z.string().openapi({ description: "When it was read (ISO 8601)" }),
}).openapi("VerificationEvidence");

export const FindAnswerSchema = z.object({
  found: z.boolean().openapi({
    description:
      "True only for an address a mail server accepted on a domain that is not catch-all, or one our directory verified recently. When verification is not possible: false with a reason, never a guess",
  }),
  email: z.string().nullable().openapi({
    description: "The verified address; null whenever `found` is false",
  }),
  status: z.enum(EMAIL_STATUSES).openapi({
    description:
      "`valid` (delivered), `invalid` (every candidate rejected, or the domain cannot receive mail), `catch-all` (the domain accepts every address), `unknown` (not verified: unavailable, or the lookup never reached a mail server)",
  }),
  confidence: z.number().openapi({
    description:
      "Probability that `email` is delivered: 0.95 for an SMTP accept, 0.9 for a recent directory verification, 0 when no address is delivered",
  }),
  person: PersonSchema.nullable(),
  resolvedProfile: ResolvedProfileSchema.nullable(),
  company: ResolvedCompanySchema.nullable(),
  verification: VerificationSchema.nullable().openapi({
    description: "The evidence behind `status`; null when no mail server or record was consulted",
  }),
  reason: z.enum(FIND_REASONS).nullable().openapi({
    description:
      "Why no address was delivered (null when found): `not-found` (every candidate rejected; billed), `catch-all` (billed), `unusable-domain` (NXDOMAIN, a null MX, neither MX nor A/AAAA, MX hosts that do not exist, or mail hosts only on loopback/private/link-local or other non-global addresses, which are never connected to; not billed), `free-mail-domain` / `disposable-domain` (the domain is a free mailbox provider such as gmail.com, or a throwaway-address service: no work email lives there; refused before any DNS or SMTP, not billed; in company mode the company part is billed, as for `unusable-domain`), `do-not-contact` (the domain, a parent domain, or this person's address is on the workspace's do-not-contact list; refused before any DNS or SMTP, nothing billed in any mode, nothing about the person returned), `verification-unavailable` (greylisted after the retry, a policy block, every host down, a timeout, DNS that could not answer (SERVFAIL, REFUSED, no answer), or a provider could not answer; not billed, except a company part already resolved; a retry with the same Idempotency-Key runs again and answers `replay: false`, charging only what the key has not paid), `company-not-found` (company mode: the company part is billed), `profile-not-found` (not billed), `invalid-input` (the name does not split; not billed), `insufficient-credits` (refused before any work; not billed)",
  }),
  retryAfterSeconds: z.number().int().positive().optional().openapi({
    description:
      "With `verification-unavailable` only, when calling again is expected to get further: the mail server greylisted the lookup (it defers a new sender–recipient pair for minutes; the same call after this many seconds asks the same recipients from the same sender and passes), or asked us to come back later (421). Absent otherwise",
    example: 240,
  }),
  ...LookupBillingFields,
  ...CreditsChargedField,
}).openapi("FindAnswer");
