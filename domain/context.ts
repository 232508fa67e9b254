/**
 * Everything a domain verb may use, built once in main.ts (or a test harness) and passed in.
 * Routes hand it to verbs; they never reach the stores themselves.
 */
import type { PriceTable } from "./config/config.ts";
import type { Authenticate } from "./auth/authenticate.ts";
import type { ChargeUnits } from "./billing/charge_units.ts";
import type { Fingerprinter } from "./idempotency/fingerprint.ts";
import type { IdempotencyRecords } from "./idempotency/claim_idempotency_key.ts";
import type { RateLimiter } from "./rate_limit/rate_limiter.ts";
import type { Clock } from "./shared/clock.ts";
import type { Logger } from "./shared/logger.ts";
import type { Database } from "./stores/database.ts";
import type { NameModel } from "../model/types.ts";

export interface DomainContext {
  db: Database;
  kv: Deno.Kv;
  clock: Clock;
  logger: Logger;
  prices: PriceTable;
  authenticate: Authenticate;
  rateLimiter: RateLimiter;
  charge: ChargeUnits;
  fingerprint: Fingerprinter;
  idempotency: IdempotencyRecords;
  /** The loaded name model, or null when absent (the rule answers). */
  nameModel: NameModel | null;
}
