/**
 * An `EmailVerifier` that asks a remote verifier over HTTP (`deno task verifier` on a host
 * whose outbound port 25 is open): `POST {url}/verify` with the request as JSON and
 * `Authorization: Bearer <secret>`. The answer is checked against the outcome schema; a network
 * error, a timeout, a status other than 200 or an answer of the wrong shape is
 * `unavailable` / `verifier-error`, never an exception.
 */
import type { EmailVerifier, VerificationOutcome } from "./email_verifier.ts";
import { verificationOutcomeSchema } from "./verification_schema.ts";

export interface RemoteVerifierOptions {
  /** Base URL of the verifier (`http://verifier:8788`), without `/verify`. */
  url: string;
  secret: string;
  /** The whole request's limit; set it above the verifier's `VERIFY_LOOKUP_SECONDS`. */
  timeoutMs: number;
  fetch?: typeof fetch;
}

const VERIFIER_ERROR: VerificationOutcome = {
  kind: "unavailable",
  why: "verifier-error",
  evidence: null,
};

export function createRemoteVerifier(options: RemoteVerifierOptions): EmailVerifier {
  const doFetch = options.fetch ?? fetch;
  const endpoint = `${options.url.replace(/\/+$/, "")}/verify`;
  return {
    async verify(request) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), options.timeoutMs);
      try {
        const response = await doFetch(endpoint, {
          method: "POST",
          headers: {
            "Authorization": `Bearer ${options.secret}`,
            "Content-Type": "application/json",
            "Accept": "application/json",
          },
          body: JSON.stringify({ domain: request.domain, candidates: request.candidates }),
          signal: controller.signal,
        });
        if (response.status !== 200) {
          await response.body?.cancel();
          return VERIFIER_ERROR;
        }
        const parsed = verificationOutcomeSchema.safeParse(await response.json());
        return parsed.success ? parsed.data : VERIFIER_ERROR;
      } catch {
        return VERIFIER_ERROR;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
