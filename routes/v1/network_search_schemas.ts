/** Request and answer schemas of `POST /api/v1/network-search` (spec §2.6, §4.4). */
import { z } from "@hono/zod-openapi";
import {
  CreditsChargedField,
  LookupBillingFields,
  maxCharacters,
  NOT_BLANK_NO_CONTROL,
  withoutControlCharacters,
} from "../schemas.ts";

const requiredName = (field: string) =>
  withoutControlCharacters(
    maxCharacters(
      z.string({
        error: (issue) =>
          issue.input === undefined || issue.input === null
            ? `${field} is required`
            : `${field} must be a string`,
      }).trim().min(1, `${field} must not be blank`),
      128,
      `${field} must be at most 128 characters`,
    ),
    field,
    NOT_BLANK_NO_CONTROL,
  );

export const NetworkSearchBodySchema = z.object({
  firstName: requiredName("firstName").openapi({ example: "Grace" }),
  lastName: requiredName("lastName").openapi({ example: "Hopper" }),
  company: withoutControlCharacters(
    maxCharacters(
      z.string({ error: "company must be a string" }).trim(),
      256,
      "company must be at most 256 characters",
    ),
    "company",
  ).optional().openapi({
    description:
      "Optional employer narrowing: the company's name as people write it. A profile at another employer is not returned; the employer raises a profile's score when it matches",
    example: "Acme",
  }),
}).openapi("NetworkSearchRequest");

const MatchSchema = z.object({
  name: z.string(),
  headline: z.string().nullable(),
  companyName: z.string().nullable().openapi({
    description: "The employer, as read from the profile",
  }),
  title: z.string().nullable(),
  location: z.string().nullable(),
  networkUrl: z.string().openapi({
    description: "The profile URL; pass it to find in `network` mode",
    example: "https://www.linkedin.com/in/grace-hopper",
  }),
}).openapi("ProfileMatch");

export const NetworkSearchAnswerSchema = z.object({
  matches: z.array(MatchSchema).openapi({
    description:
      "At most one profile: the best candidate when it is strong enough (the name model's reading of the profile's name against the asked name, diacritics and order folded, and the employer). Empty on a completed search that found none (no `reason`)",
  }),
  reason: z.enum(["search-unavailable", "insufficient-credits"]).nullable().openapi({
    description:
      "`search-unavailable`: the web-search provider could not answer (429, 5xx, timeout, bad key); not billed. `insufficient-credits`: refused before any work; not billed",
  }),
  cached: z.boolean().openapi({
    description:
      "True when the answer came from the result cache (SEARCH_CACHE_SECONDS); billed like a fresh search",
  }),
  ...LookupBillingFields,
  ...CreditsChargedField,
}).openapi("NetworkSearchAnswer");
