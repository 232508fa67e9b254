/**
 * The candidate order of a lookup that met greylisting, kept so the next call for the same person
 * asks exactly the same addresses: the patterns a domain is ranked by (`rankPatterns`) follow the
 * addresses the directory has verified there, and another lookup finding someone at the domain in
 * the meantime could reorder them, or push a candidate past the 16 asked. A greylisting server
 * lets a recipient through only when it is asked again after its delay; a new one starts over.
 *
 * Kept in KV under a fingerprint of (domain, given name, surname) under the server secret, holding
 * only pattern names (`first.last`, …): no name or address reaches KV. It lasts as long as the
 * engine's greylist memory (a day); expiry is read from `expiresAt` in the value. A KV failure
 * reads as "nothing kept" and drops the write: the order is then ranked afresh.
 */
import type { DomainContext } from "../context.ts";
import { withKvRetry } from "../stores/kv.ts";
import { isPatternName, type PatternName, type PersonName } from "./email_patterns.ts";

const KEEP_MS = 86_400_000;

export function candidateOrderKey(tag: string): Deno.KvKey {
  return ["find", "candidate_order", tag];
}

interface KeptOrder {
  preferred: string[];
  expiresAt: number;
}

function tagOf(ctx: Pick<DomainContext, "fingerprint">, name: PersonName, domain: string) {
  return ctx.fingerprint("find-candidate-order", {
    domain: domain.toLowerCase(),
    given: name.given.toLowerCase(),
    surname: name.surname.toLowerCase(),
  });
}

/** The pattern order a greylisted lookup of this person used, or null. */
export async function keptCandidateOrder(
  ctx: Pick<DomainContext, "fingerprint" | "kv" | "clock">,
  name: PersonName,
  domain: string,
): Promise<PatternName[] | null> {
  try {
    const entry = await withKvRetry(() =>
      ctx.kv.get<KeptOrder>(candidateOrderKey(tagOf(ctx, name, domain)))
    );
    const value = entry.value;
    if (!value || typeof value.expiresAt !== "number" || value.expiresAt <= ctx.clock.now()) {
      return null;
    }
    return Array.isArray(value.preferred) ? value.preferred.filter(isPatternName) : null;
  } catch {
    return null;
  }
}

/** Keeps `preferred` for this person (only the first greylisted call's order is kept). */
export async function keepCandidateOrder(
  ctx: Pick<DomainContext, "fingerprint" | "kv" | "clock">,
  name: PersonName,
  domain: string,
  preferred: readonly PatternName[],
): Promise<void> {
  const key = candidateOrderKey(tagOf(ctx, name, domain));
  try {
    const entry = await withKvRetry(() => ctx.kv.get<KeptOrder>(key));
    if (entry.value && entry.value.expiresAt > ctx.clock.now()) return;
    const value: KeptOrder = { preferred: [...preferred], expiresAt: ctx.clock.now() + KEEP_MS };
    // A false `ok`: another call kept its order first, which is the one to follow.
    await withKvRetry(() =>
      ctx.kv.atomic().check(entry).set(key, value, { expireIn: KEEP_MS }).commit()
    );
  } catch {
    // KV unavailable: the next call ranks afresh.
  }
}
