import { encodeHex } from "../shared/hex.ts";

/**
 * The server secret that keys request fingerprints. `SVC_SECRET` wins; otherwise one is
 * generated once into DATA_DIR/secret (mode 0600) and read back on every start. Instances that
 * share one database must share the secret (set SVC_SECRET).
 */
export async function loadOrCreateSecret(dataDir: string): Promise<string> {
  const path = `${dataDir}/secret`;
  try {
    const existing = (await Deno.readTextFile(path)).trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await Deno.mkdir(dataDir, { recursive: true });
  const secret = encodeHex(crypto.getRandomValues(new Uint8Array(32)));
  try {
    await Deno.writeTextFile(path, secret + "\n", { createNew: true, mode: 0o600 });
    return secret;
  } catch (error) {
    // Another process wrote it first: use theirs.
    if (error instanceof Deno.errors.AlreadyExists) return (await Deno.readTextFile(path)).trim();
    throw error;
  }
}
