import type { Context } from "hono";
import { getConnInfo } from "hono/deno";

/** The address the request came from, counted by the sign-in rate limit ("unknown" when none). */
export function clientAddressOf(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown"; // not served by Deno.serve (tests through app.request)
  }
}
