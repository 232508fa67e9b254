import type { DomainContext } from "../context.ts";

export interface Health {
  status: "ok" | "degraded";
  database: { status: "ok" | "down"; kind: "postgres" | "pglite" };
  kv: { status: "ok" | "down" };
  nameModel: { status: "loaded" | "absent"; version: string | null };
}

/** Store status for `GET /healthz`; each probe is bounded so a hung store reads as down. */
export async function checkHealth(ctx: DomainContext, timeoutMs = 2000): Promise<Health> {
  const [database, kv] = await Promise.all([
    probe(() => ctx.db.sql`SELECT 1`, timeoutMs),
    probe(() => ctx.kv.get(["health"]), timeoutMs),
  ]);
  return {
    status: database && kv ? "ok" : "degraded",
    database: { status: database ? "ok" : "down", kind: ctx.db.kind },
    kv: { status: kv ? "ok" : "down" },
    nameModel: {
      status: ctx.nameModel ? "loaded" : "absent",
      version: ctx.nameModel?.version ?? null,
    },
  };
}

export async function probe(call: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      call().then(() => true),
      new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), timeoutMs)),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
