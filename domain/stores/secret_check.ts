/**
 * Instances sharing one database must share the server secret: request fingerprints (idempotency
 * records, the lookup cache) are HMACs under it, so an instance with another secret would answer
 * `idempotency_conflict` where the others replay. The database keeps a verifier of the secret —
 * HMAC-SHA256(secret, "svc-secret-check"), from which the secret cannot be read back — written by
 * the first instance that starts on it; every later start compares and refuses on a difference.
 */
import { createHmac } from "node:crypto";
import type { Sql } from "./database.ts";

export const SECRET_CHECK_SETTING = "svc_secret_check";

export function secretVerifier(secret: string): string {
  return createHmac("sha256", secret).update("svc-secret-check").digest("hex");
}

/** Where the secret came from, for the message. */
export type SecretSource = { kind: "env" } | { kind: "file"; path: string };

export class SecretMismatch extends Error {
  constructor(source: SecretSource) {
    super(
      source.kind === "env"
        ? "SVC_SECRET differs from the secret this database was first used with: every instance " +
          "sharing a database must have the same SVC_SECRET (changing it is not supported; see " +
          "docs/deployment.md, The server secret)"
        : `SVC_SECRET is unset and the secret in ${source.path} differs from the one this ` +
          "database was first used with: instances sharing a database must share one secret — " +
          "set SVC_SECRET to the same value on every instance (see docs/deployment.md, The server secret)",
    );
    this.name = "SecretMismatch";
  }
}

/**
 * Stores the secret's verifier on a database's first start, compares it on every later one.
 * "stored" on the first start, "matched" after; throws `SecretMismatch` on a difference.
 */
export async function checkServerSecret(
  sql: Sql,
  secret: string,
  source: SecretSource,
): Promise<"stored" | "matched"> {
  const verifier = secretVerifier(secret);
  const inserted = await sql`
    INSERT INTO service_settings (name, value) VALUES (${SECRET_CHECK_SETTING}, ${verifier})
    ON CONFLICT (name) DO NOTHING RETURNING name`;
  if (inserted.length > 0) return "stored";
  const [row] = await sql<{ value: string }[]>`
    SELECT value FROM service_settings WHERE name = ${SECRET_CHECK_SETTING}`;
  if (row?.value !== verifier) throw new SecretMismatch(source);
  return "matched";
}
