/**
 * The wire shapes of verification, shared by the remote verifier's client and its HTTP
 * server: the request (a host-name domain of at most 253 characters and 1–50 candidate
 * addresses, every one at that domain) and the outcome (exactly `VerificationOutcome`).
 */
import { z } from "zod";
import type { UnavailableWhy, UnusableWhy, VerificationOutcome } from "./email_verifier.ts";
import { MAIL_PROVIDERS } from "./mail_provider.ts";

export const MAX_CANDIDATES = 50;

const HOSTNAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const FORBIDDEN_IN_ADDRESS = /[\s<>\p{Cc}]/u;

/** A lower-case host name (labels of letters, digits and inner hyphens), ≤ 253 characters. */
export function isMailDomain(domain: string): boolean {
  return HOSTNAME.test(domain);
}

/** An address with a non-empty local part, no space/control/angle bracket, at `domain`. */
export function isAddressAt(address: string, domain: string): boolean {
  const at = address.lastIndexOf("@");
  return at >= 1 && at <= 64 && address.length <= 254 && !FORBIDDEN_IN_ADDRESS.test(address) &&
    address.slice(at + 1).toLowerCase() === domain;
}

export const verificationRequestSchema = z.object({
  domain: z.string().max(253).transform((domain) => domain.toLowerCase()).refine(isMailDomain, {
    message: "domain must be a host name",
  }),
  candidates: z.array(z.string().max(254)).min(1).max(MAX_CANDIDATES),
}).superRefine((request, ctx) => {
  request.candidates.forEach((candidate, i) => {
    if (!isAddressAt(candidate, request.domain)) {
      ctx.addIssue({
        code: "custom",
        path: ["candidates", i],
        message: "every candidate must be an address at the domain",
      });
    }
  });
});

const UNAVAILABLE_WHYS = [
  "greylisted",
  "policy",
  "sender-rejected",
  "hosts-down",
  "timeout",
  "dns-error",
  "tls-error",
  "unexpected-reply",
  "verifier-error",
] as const satisfies readonly UnavailableWhy[];

const UNUSABLE_WHYS = [
  "nxdomain",
  "null-mx",
  "no-mail-host",
  "no-public-address",
] as const satisfies readonly UnusableWhy[];

// `provider`, `encrypted` and `certificateVerified` default for a remote verifier of an older
// release that does not send them.
const evidence = z.object({
  mxHost: z.string(),
  provider: z.enum(MAIL_PROVIDERS).default("other"),
  smtpCode: z.number().int().nullable(),
  enhancedStatus: z.string().nullable(),
  encrypted: z.boolean().nullable().default(null),
  certificateVerified: z.boolean().nullable().default(null),
  checkedAt: z.string(),
});

const mailHosts = z.array(z.string()).max(100).optional();

export const verificationOutcomeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("valid"), address: z.string(), evidence, mailHosts }),
  z.object({ kind: z.literal("rejected"), evidence, mailHosts }),
  z.object({ kind: z.literal("catch-all"), evidence, mailHosts }),
  z.object({
    kind: z.literal("unusable-domain"),
    why: z.enum(UNUSABLE_WHYS),
    mailHosts,
  }),
  z.object({
    kind: z.literal("unavailable"),
    why: z.enum(UNAVAILABLE_WHYS),
    evidence: evidence.nullable(),
    mailHosts,
    retryAfterSeconds: z.number().int().positive().optional(),
  }),
]);

// Compile-time checks that the schema and the port's types say the same thing.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const outcomeMatches: Same<z.infer<typeof verificationOutcomeSchema>, VerificationOutcome> = true;
const whysComplete: Same<typeof UNAVAILABLE_WHYS[number], UnavailableWhy> = true;
void outcomeMatches;
const unusableComplete: Same<typeof UNUSABLE_WHYS[number], UnusableWhy> = true;
void whysComplete;
void unusableComplete;
