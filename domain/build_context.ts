import type { Config } from "./config/config.ts";
import type { DomainContext, LookupSettings, Ports } from "./context.ts";
import { createAuthenticator } from "./auth/authenticate.ts";
import { createCharger } from "./billing/charge_units.ts";
import { createFingerprinter } from "./idempotency/fingerprint.ts";
import { createIdempotencyRecords } from "./idempotency/claim_idempotency_key.ts";
import { createRateLimiter } from "./rate_limit/rate_limiter.ts";
import type { Clock } from "./shared/clock.ts";
import type { Logger } from "./shared/logger.ts";
import { CHARGE_SHARDS, type Database } from "./stores/database.ts";
import type { NameModel } from "../model/types.ts";
import { coalescedModel } from "./name_parse/coalesced_model.ts";
import { createResultCache } from "./lookups/result_cache.ts";
import { noTelemetry, type Telemetry } from "./observability/telemetry.ts";
import { observedCharge } from "./observability/observed_ports.ts";
import { createSecretSeal } from "./webhooks/sealed_secret.ts";
import { createPersonKeys } from "./privacy/person_keys.ts";
import { createOptOutLinks } from "./privacy/opt_out_link.ts";

export interface ContextParts {
  config: Pick<Config, "prices" | "rateLimits" | "authCacheSeconds" | "searchCacheSeconds">;
  db: Database;
  kv: Deno.Kv;
  clock: Clock;
  logger: Logger;
  secret: string;
  nameModel: NameModel | null;
  ports: Ports;
  settings: LookupSettings;
  /** Where the work is reported (metrics, spans); none by default. */
  telemetry?: Telemetry;
}

/** Wires the domain's ports once; main.ts and the test harness both build through here. */
export function buildContext(parts: ContextParts): DomainContext {
  const { db, kv, clock, logger, config } = parts;
  const fingerprint = createFingerprinter(parts.secret);
  const telemetry = parts.telemetry ?? noTelemetry;
  return {
    db,
    kv,
    clock,
    logger,
    prices: config.prices,
    authenticate: createAuthenticator({
      sql: db.sql,
      clock,
      cacheSeconds: config.authCacheSeconds,
      logger,
    }),
    rateLimiter: createRateLimiter({ kv, clock, rules: config.rateLimits }),
    charge: observedCharge(
      createCharger(db.ledgerSql, { maxInFlight: CHARGE_SHARDS[db.kind] }),
      telemetry,
    ),
    fingerprint,
    idempotency: createIdempotencyRecords({ sql: db.sql, clock }),
    nameModel: parts.nameModel ? coalescedModel(parts.nameModel) : null,
    ...parts.ports,
    settings: parts.settings,
    resultCache: createResultCache({
      kv,
      clock,
      fingerprint,
      ttlSeconds: config.searchCacheSeconds,
    }),
    webhookSecrets: createSecretSeal(parts.secret),
    personKeys: createPersonKeys(parts.secret, parts.settings.network),
    optOutLinks: createOptOutLinks(parts.secret),
    telemetry,
  };
}
