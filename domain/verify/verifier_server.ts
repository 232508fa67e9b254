/**
 * The remote verifier's HTTP handler (plain `Request → Response`, no framework):
 * `POST /verify` with `Authorization: Bearer <secret>` (compared in constant time) and a body
 * `{ domain, candidates }` answers 200 with the `VerificationOutcome` as JSON; `GET /healthz`
 * answers 200 without a secret. A wrong or missing secret is 401, a bad body 400, another
 * path 404, another method 405; errors are `{ error: { code, message } }`. Messages never
 * quote the request.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { EmailVerifier } from "./email_verifier.ts";
import { verificationRequestSchema } from "./verification_schema.ts";

export interface VerifierHandlerDeps {
  verifier: EmailVerifier;
  secret: string;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

function error(status: number, code: string, message: string, headers?: Record<string, string>) {
  return json(status, { error: { code, message } }, headers);
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** Compares SHA-256 digests (equal length) in constant time. */
function secretMatches(header: string | null, expected: Buffer): boolean {
  const match = /^Bearer (.+)$/.exec(header ?? "");
  const offered = digest(match ? match[1] : "");
  return timingSafeEqual(offered, expected) && match !== null;
}

export function createVerifierHandler(
  deps: VerifierHandlerDeps,
): (req: Request) => Promise<Response> {
  if (!deps.secret) throw new Error("the verifier needs a non-empty secret");
  const expected = digest(deps.secret);

  return async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/healthz") {
      if (req.method !== "GET" && req.method !== "HEAD") {
        return error(405, "method_not_allowed", "Use GET", { Allow: "GET, HEAD" });
      }
      return json(200, { status: "ok" });
    }
    if (pathname !== "/verify") return error(404, "not_found", "No such path");
    if (req.method !== "POST") {
      return error(405, "method_not_allowed", "Use POST", { Allow: "POST" });
    }
    if (!secretMatches(req.headers.get("Authorization"), expected)) {
      await req.body?.cancel();
      return error(401, "unauthenticated", "Missing or wrong verifier secret");
    }
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      return error(400, "validation_error", "Body must be JSON");
    }
    const parsed = verificationRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return error(
        400,
        "validation_error",
        `${issue.path.join(".") || "body"}: ${issue.message}`,
      );
    }
    const outcome = await deps.verifier.verify(parsed.data);
    return json(200, outcome);
  };
}
