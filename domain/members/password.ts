/**
 * Member passwords: argon2id (RFC 9106) through `hash-wasm`, a maintained WebAssembly build that
 * runs the same on a server, in a Worker and on Deno Deploy (no native addon), at OWASP's
 * recommended minimum (19 MiB, 2 passes, 1 lane): ~50 ms a hash on the 2-core machine. Stored
 * as the PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`), so parameters can rise later
 * without invalidating old hashes.
 */
import { argon2id, argon2Verify } from "hash-wasm";
import { encodeHex } from "../shared/hex.ts";

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

export async function hashPassword(password: string): Promise<string> {
  return await argon2id({
    password,
    salt: crypto.getRandomValues(new Uint8Array(16)),
    parallelism: 1,
    iterations: 2,
    memorySize: 19_456,
    hashLength: 32,
    outputType: "encoded",
  });
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await argon2Verify({ password, hash });
  } catch {
    return false;
  }
}

/** A hash of no one's password: checked when no member has the address, so both take as long. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  return decoy ??= hashPassword(encodeHex(crypto.getRandomValues(new Uint8Array(16))));
}

/** A one-time password for `admin user create|reset-password`: 20 characters, ~100 bits. */
export function generateOneTimePassword(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
}

/** Why a chosen password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `The password must be at most ${MAX_PASSWORD_LENGTH} characters long`;
  }
  return null;
}
