/**
 * `POST /api/v1/name/parse`: one name, billed once when answered (spec §4.1, §4.9, §4.10), on
 * the shared billed-call mechanism.
 *
 * Privacy: the name and its answer live only in this call's memory. The idempotency record
 * holds the key, an HMAC fingerprint of the request and a state; a replay recomputes the answer.
 */
import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import { type Billing, runBilledCall } from "../billing/billed_call.ts";
import { insufficientCredits } from "../billing/insufficient_credits.ts";
import type { NameAnswer, Spelling } from "./name_answer.ts";
import { readNames } from "./read_names.ts";

export const PARSE_SCOPE = "name.parse";

export interface ParseNameInput {
  workspaceId: string;
  name: string;
  spelling: Spelling;
  idempotencyKey?: string;
}

export type ParsedName = NameAnswer & Billing;

export async function parseName(ctx: DomainContext, input: ParseNameInput): Promise<ParsedName> {
  const result = await runBilledCall<NameAnswer>(ctx, {
    workspaceId: input.workspaceId,
    scope: PARSE_SCOPE,
    request: { name: input.name, spelling: input.spelling },
    idempotencyKey: input.idempotencyKey,
    work: async () => ({
      answer: await answerOrRefuse(ctx, input),
      parts: [{ part: "", price: "nameParse" }],
      final: true,
    }),
    // Nothing of the name is stored: a replay reads it again.
    replay: () => answerOrRefuse(ctx, input),
  });
  if (result.kind === "insufficient") {
    throw insufficientCredits(result.required, result.available);
  }
  return { ...result.answer, ...result.billing };
}

/** The reading, or the refusal (`validation_error`, `invalid_input`) as an error: never billed. */
async function answerOrRefuse(ctx: DomainContext, input: ParseNameInput): Promise<NameAnswer> {
  const [outcome] = await readNames(ctx.nameModel, [input.name], input.spelling);
  if (outcome.kind === "refused") {
    throw new ServiceError(outcome.refusal.code, outcome.refusal.message);
  }
  return outcome.answer;
}
