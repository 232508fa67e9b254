/**
 * Whether this instance should get traffic (`GET /readyz`), for load balancers and Deno Deploy:
 * not while it starts, not once it stops (during `SHUTDOWN_DRAIN_SECONDS` every request is still
 * served; after it, requests in progress still finish), and not while its database cannot be
 * reached. `/healthz` reports the stores; this is the yes/no a balancer reads.
 */
import type { DomainContext } from "../context.ts";
import { probe } from "./check_health.ts";

export type Lifecycle = "starting" | "ready" | "stopping";

export interface Readiness {
  readonly lifecycle: Lifecycle;
  ready(): void;
  stopping(): void;
}

export function createReadiness(initial: Lifecycle = "starting"): Readiness {
  let lifecycle = initial;
  return {
    get lifecycle() {
      return lifecycle;
    },
    ready() {
      if (lifecycle === "starting") lifecycle = "ready";
    },
    stopping() {
      lifecycle = "stopping";
    },
  };
}

export type ReadyAnswer =
  | { ready: true; status: "ready" }
  | { ready: false; status: "starting" | "stopping" | "database-unreachable" };

export async function checkReadiness(
  ctx: Pick<DomainContext, "db">,
  readiness: Readiness,
  timeoutMs = 2000,
): Promise<ReadyAnswer> {
  const lifecycle = readiness.lifecycle;
  if (lifecycle !== "ready") return { ready: false, status: lifecycle };
  const database = await probe(() => ctx.db.sql`SELECT 1`, timeoutMs);
  return database
    ? { ready: true, status: "ready" }
    : { ready: false, status: "database-unreachable" };
}
