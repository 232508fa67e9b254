/** Request and answer schemas of the two name-parse operations (spec §2.3, §2.4, §4.1, §4.2). */
import { z } from "@hono/zod-openapi";
import { MAX_NAME_LENGTH } from "../../domain/name_parse/name_answer.ts";
import { BalanceSchema, NOT_BLANK_NO_CONTROL } from "../schemas.ts";

const SPELLING_MESSAGE = "spelling must be as-written or folded";
export const NAMES_NOT_AN_ARRAY_MESSAGE = "names must be an array of 1 to 100 strings";

export const SpellingSchema = z.enum(["as-written", "folded"], { error: SPELLING_MESSAGE })
  .optional()
  .openapi({
    description:
      "`as-written` (default): the words as sent, after cleaning. `folded`: lower case, diacritics removed",
    example: "as-written",
  });

export const ParseNameBodySchema = z.object({
  name: z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? "name is required"
        : "name must be a string",
  }).openapi({
    // Documented only: the verb checks blank, control characters and length and answers its own
    // messages (§4.1).
    minLength: 1,
    maxLength: MAX_NAME_LENGTH,
    pattern: NOT_BLANK_NO_CONTROL,
    description:
      'The full name, at most 256 characters, holding no control character (tab and line breaks excepted: they separate words as spaces do). Honorifics, credentials, generational suffixes, pronouns and bracketed asides are dropped, and so are e-mail and web addresses, @handles, a job title after the name ("Jane Roe, CEO at Acme"), a maiden name or alias after it ("née Smith", "aka Janie") and whatever follows a bar ("Jane Roe | Acme"); a name in quotes from end to end is the name; an organisation\'s name ("Acme Inc.") does not split; a nickname in double quotes (or up to three words in single quotes) is kept, and so is a bracketed one standing alone before a surname ("(Rick) Roe")',
    example: "Dr. Tanaka Hiroshi",
  }),
  spelling: SpellingSchema,
}).openapi("ParseNameRequest");

export const ParseBatchBodySchema = z.object({
  names: z.array(
    // Documented only: an over-long name is that row's validation_error (spec §4.2 rule 1).
    z.string({ error: "names must be strings" }).openapi({ maxLength: MAX_NAME_LENGTH }),
    {
      // Spec §4.2 rule 3 fixes "names is required" for a missing names; a value that is there
      // but no array gets a message that says what it must be.
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? "names is required"
          : NAMES_NOT_AN_ARRAY_MESSAGE,
    },
  )
    .min(1, "names must contain at least one name")
    .max(100, "names must contain at most 100 names")
    .openapi({
      description:
        "1 to 100 names, each answered in order. A blank or over-long name, or one holding a control character (tab and line breaks excepted), is that row's validation_error",
      example: ["Ada Lovelace", "Nagy László", "García Márquez, Gabriel"],
    }),
  spelling: SpellingSchema,
}).openapi("ParseNameBatchRequest");

const nameFields = {
  first: z.string().openapi({ description: "Always equal to `given`", example: "Hiroshi" }),
  last: z.string().openapi({ description: "Always equal to `surname`", example: "Tanaka" }),
  given: z.string().openapi({
    description: "Every given-name word in order (middle names, a quoted nickname's word)",
    example: "Hiroshi",
  }),
  surname: z.string().openapi({
    description: "Every surname word in full; particles stay with the surname",
    example: "Tanaka",
  }),
  nickname: z.string().nullable().openapi({
    description: "A quoted nickname (or a bracketed one read as the given name), else null",
  }),
  source: z.enum(["model", "rule"]).openapi({
    description:
      "`model`: the name model decided. `rule`: the model was not confident enough or not available (first word given, the rest surname; a comma-inverted name splits at its comma). Billed the same",
  }),
  confidence: z.number().nullable().openapi({
    description:
      "The model's probability for its whole reading whenever it ran (also when the rule answered); null only when the model was not available",
    example: 0.97,
  }),
  bothOrders: z.boolean().openapi({
    description: "True when the order is genuinely ambiguous; the answer is then the model's order",
  }),
  charged: z.boolean().openapi({ description: "Whether this answer consumed points" }),
  pointsCharged: z.number().int().openapi({ description: "Points consumed; 0 on a replay" }),
  replay: z.boolean().openapi({
    description: "True when this answers an earlier call with the same Idempotency-Key",
  }),
};

const balanceField = BalanceSchema.nullable().openapi({
  description: "The workspace balance after the call; null when it could not be read",
});

export const ParsedNameSchema = z.object({ ...nameFields, balance: balanceField })
  .openapi("ParsedName");

export const BatchRowAnswerSchema = z.object(nameFields).openapi("ParsedNameRow");

export const BatchRowErrorSchema = z.object({
  error: z.object({
    code: z.enum([
      "invalid_input",
      "validation_error",
      "insufficient_credits",
      "incomplete",
      "idempotency_in_progress",
      "idempotency_conflict",
    ]),
    message: z.string(),
  }),
}).openapi("BatchRowError");

export const ParsedBatchSchema = z.object({
  results: z.array(z.union([z.object({ data: BatchRowAnswerSchema }), BatchRowErrorSchema]))
    .openapi({ description: "Exactly one element per submitted name, in input order" }),
  pointsCharged: z.number().int().openapi({ description: "Sum of the rows' pointsCharged" }),
  replay: z.boolean().openapi({
    description: "True when every answered row replayed an earlier call with this key",
  }),
  balance: balanceField,
}).openapi("ParsedNameBatch");
