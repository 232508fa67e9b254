/** Schemas shared by several routes; each becomes a named component of the OpenAPI document. */
import {
  controlCharacterMessage,
  hasControlCharacter,
} from "../domain/shared/control_characters.ts";
import { z } from "@hono/zod-openapi";
import { characterCount } from "../domain/shared/character_count.ts";
import { ERROR_CODES } from "../domain/errors.ts";
import { IDEMPOTENCY_KEY_RULE } from "../domain/idempotency/idempotency_key.ts";
import { DEFAULT_LEASE_MS } from "../domain/idempotency/claim_idempotency_key.ts";

export const BalanceSchema = z.object({
  available: z.number().int().openapi({
    description: "Points that can be spent now",
    example: 950,
  }),
  reserved: z.number().int().openapi({
    description: "Points held for running work (lead-search worst case)",
    example: 0,
  }),
  granted: z.number().int().openapi({ description: "All points ever granted", example: 1000 }),
}).openapi("Balance");

export const ErrorSchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES).openapi({ description: "Branch on this, not on message" }),
    message: z.string(),
    retryAfterSeconds: z.number().int().optional().openapi({ description: "Present on 429 only" }),
    meta: z.record(z.string(), z.unknown()).optional().openapi({
      description: "Details, e.g. `{ required, available, shortfall }` on 402",
    }),
    requestId: z.string().optional().openapi({
      description: "The answer's `X-Request-Id`: quote it when reporting a problem",
      example: "3f0c9a52-8d1e-4a57-9a0e-2f6f1f1c0b7e",
    }),
  }),
}).openapi("Error");

const errorContent = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorSchema } },
});

/** The error answers every authenticated, rate-limited operation can give. */
export const COMMON_ERROR_RESPONSES = {
  401: errorContent(
    "`unauthenticated`: key missing, invalid or expired (before any billable work)",
  ),
  429: errorContent(
    "`rate_limited`: the workspace's budget for this operation is spent; see `Retry-After`. Not billed",
  ),
  500: errorContent("`internal_error` with message `Internal error`. Not billed"),
} as const;

/** What a 409 `idempotency_in_progress` means and when to retry (the lease of claim_idempotency_key.ts). */
export const IN_PROGRESS_NOTE =
  `\`idempotency_in_progress\`: a request with this key is still running, or its process died and its lease (${
    DEFAULT_LEASE_MS / 1000
  } s, renewed while a request runs) has not lapsed yet; the \`Retry-After\` header says in how many seconds it ends (at least 1): retry then with the same key`;

/** 503 `incomplete` of an operation that charges nothing: only the database can be missing. */
export const INCOMPLETE_RESPONSE = errorContent(
  "`incomplete`: the service could not reach its database; nothing changed, try again shortly",
);

export const VALIDATION_ERROR_RESPONSE = { 400: errorContent("`validation_error`") } as const;

export { errorContent };

export const API_KEY_SECURITY = [{ apiKey: [] }];

/**
 * 1 to 255 printable ASCII characters. A space cannot open or close it: HTTP strips a header
 * value's surrounding whitespace, so such a key never arrives as sent.
 */
const PRINTABLE_ASCII = /^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/;

/**
 * JSON Schema patterns (ECMA-262, as OpenAPI 3.1 takes them) for what the checks below refuse, so
 * the document says what the service checks. `NO_CONTROL`: no C0 control but tab, LF and CR, and
 * no DEL (`hasControlCharacter`). `NO_CONTROL_AT_ALL`: no C0 at all, no DEL, no C1
 * (`hasAnyControlCharacter`, one-line fields).
 */
const CONTROL = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f";
const ANY_CONTROL = "\\u0000-\\u001f\\u007f-\\u009f";
export const NO_CONTROL = `^[^${CONTROL}]*$`;
export const NO_CONTROL_AT_ALL = `^[^${ANY_CONTROL}]*$`;
/** Free of `NO_CONTROL`'s characters (or `NO_CONTROL_AT_ALL`'s) and holding one of `wanted`. */
export function holding(wanted: string, controls: "control" | "any-control" = "control"): string {
  const refused = controls === "control" ? CONTROL : ANY_CONTROL;
  return `^[^${refused}]*${wanted}[^${refused}]*$`;
}
/** Not blank (some character that `trim()` keeps) and free of `NO_CONTROL`'s characters. */
export const NOT_BLANK_NO_CONTROL = holding(`[^\\s${CONTROL}]`);
/** Not blank, and free of `NO_CONTROL_AT_ALL`'s characters. */
export const NOT_BLANK_NO_CONTROL_AT_ALL = holding(`[^\\s${ANY_CONTROL}]`, "any-control");
/** Some character that `trim()` keeps. */
export const NOT_BLANK = "\\S";

export function withoutControlCharacters(
  schema: z.ZodString,
  field: string,
  pattern = NO_CONTROL,
): z.ZodString {
  return schema.refine((value) => !hasControlCharacter(value), controlCharacterMessage(field))
    .openapi({ pattern });
}

/**
 * At most `max` characters counted as code points (`characterCount`), the way the document's
 * `maxLength` counts them; zod's own `.max()` counts UTF-16 units and would refuse 200 emoji
 * that `maxLength: 256` admits.
 */
export function maxCharacters(schema: z.ZodString, max: number, message: string): z.ZodString {
  return schema.refine((value) => characterCount(value) <= max, message).openapi({
    maxLength: max,
  });
}

export const OptionalIdempotencyHeaders = z.object({
  "idempotency-key": z.string().regex(PRINTABLE_ASCII, IDEMPOTENCY_KEY_RULE).optional().openapi({
    description:
      "1 to 255 printable ASCII characters (no space first or last), scoped to the workspace. The same key with the same request replays free; with a different request it is idempotency_conflict. Never put personal data in it",
    example: "3f1c2a9e-parse-1",
  }),
});

export const RequiredIdempotencyHeaders = z.object({
  "idempotency-key": z.string({ error: "Idempotency-Key is required for a batch" })
    .regex(PRINTABLE_ASCII, IDEMPOTENCY_KEY_RULE)
    .openapi({
      description:
        "Required. 1 to 255 printable ASCII characters (no space first or last), scoped to the workspace; stored as sent, so never put personal data in it",
      example: "batch-2026-11-23-0001",
    }),
});

/** Spec §2.2: the fields common to lookup answers (find, network-search, enrich). */
export const LookupBillingFields = {
  charged: z.boolean().openapi({ description: "Whether this answer consumed points" }),
  pointsCharged: z.number().int().openapi({
    description: "Points this answer consumed; 0 on a replay and on every unbilled outcome",
  }),
  balance: BalanceSchema.nullable().openapi({
    description: "The workspace balance after the call; null when it could not be read",
  }),
  replay: z.boolean().openapi({
    description: "True when this answers an earlier call with the same Idempotency-Key",
  }),
};

/** `creditsCharged` (find and network-search): the same amount as `pointsCharged`. */
export const CreditsChargedField = {
  creditsCharged: z.number().int().openapi({
    description: "The consumed amount; always equal to `pointsCharged`",
  }),
};
