/** Request and answer schemas of `POST /api/v1/domain-search` and its free count. */
import { z } from "@hono/zod-openapi";
import {
  DOMAIN_SEARCH_REASONS,
  PATTERN_NULL_REASONS,
} from "../../domain/domain_search/domain_search_answer.ts";
import { MAX_DOMAIN_SEARCH_PAGE } from "../../domain/domain_search/search_domain.ts";
import { DEPARTMENTS, SENIORITIES } from "../../domain/directory/person_vocabulary.ts";
import { PATTERN_NAMES } from "../../domain/find/email_patterns.ts";
import { MAIL_PROVIDERS } from "../../domain/verify/mod.ts";
import {
  controlCharacterMessage,
  hasAnyControlCharacter,
} from "../../domain/shared/control_characters.ts";
import {
  LookupBillingFields,
  maxCharacters,
  NO_CONTROL_AT_ALL,
  NOT_BLANK_NO_CONTROL_AT_ALL,
} from "../schemas.ts";

/** One line of text: every control character is refused. */
const text = (field: string, max: number) =>
  maxCharacters(
    z.string({ error: `${field} must be a string` }),
    max,
    `${field} must be at most ${max} characters`,
  )
    .refine((value) => !hasAnyControlCharacter(value), controlCharacterMessage(field))
    .refine((value) => value.trim() !== "", `${field} must not be blank`)
    .openapi({ pattern: NOT_BLANK_NO_CONTROL_AT_ALL });

/** A page cursor: the previous answer's `nextCursor`, as it was. */
export const CURSOR = "^[A-Za-z0-9_-]{1,64}$";

/**
 * `domain`, or else `company`, for the document (JSON Schema `if`/`then`/`else`, as find's modes;
 * each branch names every field, for linters that judge a branch on its own).
 */
const BOTH = {
  domain: {},
  company: {},
  department: {},
  seniority: {},
  title: {},
  limit: {},
  cursor: {},
};
const ONE_OF_TARGETS = {
  if: { required: ["domain"], properties: BOTH },
  then: { properties: BOTH },
  else: { required: ["company"], properties: BOTH },
};

export const DomainSearchBodySchema = z.object({
  domain: text("domain", 256).optional().openapi({
    description:
      "The company's domain or website URL (reduced to its registrable domain: `https://www.acme.com/about` → `acme.com`). One of `domain` and `company` is required; `domain` wins when both are sent. A value that names no domain that can receive mail is answered `unusable-domain`, free",
    example: "acme.com",
  }),
  company: text("company", 256).optional().openapi({
    description:
      "The company's name (resolved as find's `company` mode resolves it: our records, then the company resolver) or its website",
    example: "Acme Inc",
  }),
  department: z.array(z.enum(DEPARTMENTS)).max(DEPARTMENTS.length).optional().openapi({
    description: "Only people of these departments (read from their titles)",
    example: ["engineering"],
  }),
  seniority: z.array(z.enum(SENIORITIES)).max(SENIORITIES.length).optional().openapi({
    description: "Only people of these seniority levels",
    example: ["director", "vp"],
  }),
  title: maxCharacters(
    z.string({ error: "title must be a string" }),
    128,
    "title must be at most 128 characters",
  )
    .refine((value) => !hasAnyControlCharacter(value), controlCharacterMessage("title"))
    .openapi({
      pattern: NO_CONTROL_AT_ALL,
      description:
        "Words that must all appear in a person's title, case ignored (`sales manager` finds `Sales Manager, EMEA`)",
      example: "engineer",
    })
    .optional(),
  limit: z.number({ error: "limit must be an integer" }).int("limit must be an integer")
    .min(1, `limit must be 1 to ${MAX_DOMAIN_SEARCH_PAGE}`)
    .max(MAX_DOMAIN_SEARCH_PAGE, `limit must be 1 to ${MAX_DOMAIN_SEARCH_PAGE}`).optional()
    .openapi({ description: "People per page (default 25)", example: 25 }),
  cursor: z.string({ error: "cursor must be a string" })
    .regex(new RegExp(CURSOR), "cursor must be a nextCursor value").optional().openapi({
      description: "The previous answer's `nextCursor`: the page after it",
    }),
}).openapi("DomainSearchRequest", {
  example: { domain: "acme.com", department: ["engineering"], limit: 25 },
  ...ONE_OF_TARGETS,
});

const OrganizationSchema = z.object({
  name: z.string().nullable().openapi({ description: "The company's name; null when unknown" }),
  nameSource: z.string().nullable().openapi({
    description: "Where the name came from: `directory` (our records) or the resolver (`wikidata`)",
  }),
  domain: z.string().openapi({
    description: "The registrable domain searched",
    example: "acme.com",
  }),
  domainSource: z.string().openapi({
    description:
      "Where the domain came from: `request`, `directory` (a company name our records know) or the resolver (`wikidata`)",
  }),
}).openapi("DomainSearchOrganization");

const MailSchema = z.object({
  mxRecords: z.array(z.string()).openapi({
    description: "MX host names by preference; empty when not known",
    example: ["aspmx.l.google.com"],
  }),
  provider: z.enum(MAIL_PROVIDERS).nullable().openapi({
    description: "Who runs the first MX host; null when not known",
  }),
  acceptsMail: z.boolean().nullable().openapi({
    description:
      "True when the domain has mail hosts; null when not known (a remote verifier, or DNS could not answer)",
  }),
  catchAll: z.boolean().nullable().openapi({
    description:
      "Whether the domain accepts every address, as the verification engine's last probe there found; null when it has not probed it lately",
  }),
  catchAllCheckedAt: z.string().nullable().openapi({
    description: "When that probe was answered (ISO 8601)",
  }),
}).openapi("DomainSearchMail");

const PatternSchema = z.object({
  format: z.string().openapi({
    description: "The address format: `{first}`, `{last}`, `{f}` and `{l}` (initials), `{m}`",
    example: "{first}.{last}",
  }),
  name: z.enum(PATTERN_NAMES).openapi({ description: "The pattern's name, as find names it" }),
  supportingAddresses: z.number().int().openapi({
    description: "Verified addresses at the domain that follow it",
    example: 3,
  }),
  share: z.number().openapi({
    description:
      "Of the verified addresses that follow any pattern, the share that follows this one",
    example: 1,
  }),
  lastConfirmedAt: z.string().nullable().openapi({
    description: "The newest verification among them (ISO 8601)",
  }),
  confidence: z.number().openapi({
    description:
      "The lower bound of the 95 % Wilson interval of `share` (0 to 1): 3 of 3 gives 0.44, 30 of 30 gives 0.89",
    example: 0.44,
  }),
}).openapi("DomainSearchPattern");

const PersonSchema = z.object({
  name: z.string(),
  given: z.string().nullable(),
  surname: z.string().nullable(),
  title: z.string().nullable(),
  department: z.enum(DEPARTMENTS).nullable(),
  seniority: z.string().nullable().openapi({ description: `One of ${SENIORITIES.join(", ")}` }),
  networkUrl: z.string().nullable().openapi({
    description: "The profile URL; can be passed to find in `network` mode",
  }),
  email: z.object({
    address: z.string(),
    verifiedAt: z.string().openapi({ description: "When it was verified (ISO 8601)" }),
    method: z.string().openapi({
      description: "What verified it: `find` (a mail server accepted it), `import`, `enrich` …",
    }),
  }).nullable().openapi({
    description:
      "An address verified within VERIFIED_EMAIL_MAX_AGE_DAYS; null otherwise (never a guessed one)",
  }),
}).openapi("DomainSearchPerson");

export const DomainSearchAnswerSchema = z.object({
  organization: OrganizationSchema.nullable(),
  mail: MailSchema.nullable(),
  pattern: PatternSchema.nullable(),
  patternReason: z.enum(PATTERN_NULL_REASONS).nullable().openapi({
    description:
      "Why `pattern` is null: `no-verified-addresses` (none known at the domain) or `too-few-addresses` (fewer than 2 follow any one format); null when a pattern is stated or the search was refused",
  }),
  people: z.array(PersonSchema),
  total: z.number().int().openapi({
    description: "People at the domain matching the filters, the do-not-contact list left out",
  }),
  nextCursor: z.string().nullable().openapi({
    description: "Pass as `cursor` for the next page; null on the last page",
  }),
  reason: z.enum(DOMAIN_SEARCH_REASONS).nullable().openapi({
    description:
      "`not-found` (nobody known there), `unusable-domain`, `free-mail-domain`, `disposable-domain`, `do-not-contact`, `company-not-found`, `company-lookup-unavailable`, `insufficient-credits` (the page is answered without its addresses) — none billed; null otherwise",
  }),
  ...LookupBillingFields,
}).openapi("DomainSearchAnswer");

const BucketSchema = z.object({
  value: z.string().nullable().openapi({ description: "Null: people without one" }),
  people: z.number().int(),
  verifiedEmails: z.number().int(),
}).openapi("DomainCountBucket");

export const DomainCountQuerySchema = z.object({
  domain: z.string({ error: "domain is required" })
    .refine((value) => value.trim() !== "", "domain must not be blank")
    .refine((value) => !hasAnyControlCharacter(value), controlCharacterMessage("domain"))
    .refine((value) => [...value].length <= 256, "domain must be at most 256 characters")
    .openapi({
      pattern: NOT_BLANK_NO_CONTROL_AT_ALL,
      maxLength: 256,
      description: "The company's domain or website URL",
      example: "acme.com",
    }),
});

export const DomainCountAnswerSchema = z.object({
  domain: z.string().nullable(),
  companyName: z.string().nullable(),
  people: z.number().int().openapi({ description: "People the service holds there" }),
  verifiedEmails: z.number().int().openapi({
    description: "Of them, those with an address verified within VERIFIED_EMAIL_MAX_AGE_DAYS",
  }),
  byDepartment: z.array(BucketSchema),
  bySeniority: z.array(BucketSchema),
  reason: z.enum(DOMAIN_SEARCH_REASONS).nullable(),
}).openapi("DomainCountAnswer");
