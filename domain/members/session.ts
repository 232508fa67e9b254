/**
 * Browser sessions of the web app. The cookie carries a random token; the database keeps only its
 * SHA-256, the member, the workspace, the session's CSRF token and its expiry. A session is no API
 * key: `/api/v1/…` never reads it (spec §5.4).
 */
import { encodeHex } from "../shared/hex.ts";

export const SESSION_DAYS = 7;

export interface MemberSession {
  memberId: string;
  workspaceId: string;
  email: string;
  csrfToken: string;
  /** The member signed in with a one-time password and must choose their own first. */
  mustChoosePassword: boolean;
  expiresAt: Date;
}

export function newSessionToken(): string {
  return encodeHex(crypto.getRandomValues(new Uint8Array(32)));
}

export async function hashSessionToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return encodeHex(new Uint8Array(digest));
}
