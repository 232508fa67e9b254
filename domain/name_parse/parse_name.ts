/**
 * `POST /api/v1/name/parse`: one name, billed once when answered (spec §4.1, §4.9, §4.10).
 *
 * Privacy: the name and its answer live only in this call's memory. The idempotency record
 * holds the key, an HMAC fingerprint of the request and a state; a replay recomputes the answer.
 */
import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import { type Balance, readBalanceOrNull } from "../billing/balance.ts";
import type { ChargeResult } from "../billing/charge_units.ts";
import { chargeOrIncomplete, insufficientCredits } from "./billing_outcomes.ts";
import type { NameAnswer, Spelling } from "./name_answer.ts";
import { readNames } from "./read_names.ts";

export const PARSE_SCOPE = "name.parse";

export interface ParseNameInput {
  workspaceId: string;
  name: string;
  spelling: Spelling;
  idempotencyKey?: string;
}

export interface ParsedName extends NameAnswer {
  charged: boolean;
  pointsCharged: number;
  replay: boolean;
  balance: Balance | null;
}

export async function parseName(ctx: DomainContext, input: ParseNameInput): Promise<ParsedName> {
  const key = input.idempotencyKey;
  if (key === undefined) {
    const answer = await answerOrRefuse(ctx, input);
    const result = await chargeOrIncomplete(ctx, [{
      workspaceId: input.workspaceId,
      amount: ctx.prices.nameParse,
      chargeKey: `${PARSE_SCOPE}.anonymous:${crypto.randomUUID()}`,
      operation: "nameParse",
    }]);
    return billed(ctx, answer, result[0]);
  }

  const fingerprint = ctx.fingerprint(PARSE_SCOPE, {
    name: input.name,
    spelling: input.spelling,
  });
  const claim = await ctx.idempotency.claim({
    workspaceId: input.workspaceId,
    key,
    scope: PARSE_SCOPE,
    fingerprint,
  });
  if (claim.kind === "done") return await replayed(ctx, input);

  const lease = { workspaceId: input.workspaceId, key, leaseToken: claim.leaseToken };
  let settled = false;
  let chargeAttempted = false;
  try {
    const answer = await answerOrRefuse(ctx, input);
    chargeAttempted = true;
    const [result] = await chargeOrIncomplete(ctx, [{
      workspaceId: input.workspaceId,
      amount: ctx.prices.nameParse,
      chargeKey: `${PARSE_SCOPE}:${key}`,
      operation: "nameParse",
      idempotency: { key, leaseToken: claim.leaseToken, complete: { response: null } },
    }]);
    const answered = billed(ctx, answer, result);
    settled = true;
    return answered;
  } finally {
    // Not answered. When no charge was attempted (refusal, fault) the key is given back whole;
    // otherwise only the lease ends, so a retry resumes and the ledger decides (402 moved nothing,
    // and a charge that did commit before a failure replays).
    if (!settled) {
      await ctx.idempotency.release({ ...lease, forget: !chargeAttempted }).catch(() => {});
    }
  }
}

async function answerOrRefuse(ctx: DomainContext, input: ParseNameInput): Promise<NameAnswer> {
  const [outcome] = await readNames(ctx.nameModel, [input.name], input.spelling);
  if (outcome.kind === "refused") {
    throw new ServiceError(outcome.refusal.code, outcome.refusal.message);
  }
  return outcome.answer;
}

function billed(ctx: DomainContext, answer: NameAnswer, result: ChargeResult): ParsedName {
  switch (result.outcome) {
    case "charged":
      return {
        ...answer,
        charged: true,
        pointsCharged: ctx.prices.nameParse,
        replay: false,
        balance: result.balance,
      };
    case "duplicate":
      return { ...answer, charged: false, pointsCharged: 0, replay: true, balance: result.balance };
    case "insufficient":
      throw insufficientCredits(ctx.prices.nameParse, result.balance.available);
    case "lease_lost":
      throw new ServiceError(
        "idempotency_in_progress",
        "A request with this Idempotency-Key took over; retry shortly",
      );
  }
}

async function replayed(ctx: DomainContext, input: ParseNameInput): Promise<ParsedName> {
  const answer = await answerOrRefuse(ctx, input);
  return {
    ...answer,
    charged: false,
    pointsCharged: 0,
    replay: true,
    balance: await readBalanceOrNull(ctx.db.sql, input.workspaceId),
  };
}
