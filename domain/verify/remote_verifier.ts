/**
 * An `EmailVerifier` that asks a remote verifier over HTTP (`deno task verifier` on a host
 * whose outbound port 25 is open): `POST {url}/verify` with the request as JSON and
 * `Authorization: Bearer <secret>`. The answer is checked against the outcome schema; a network
 * error, a timeout, a status other than 200 or an answer of the wrong shape is
 * `unavailable` / `verifier-error`, never an exception. A refusal of our secret (401/403) is also
 * logged as a warning, at most once a minute, so a wrong `VERIFIER_SECRET` shows in this
 * service's log and not only in the verifier's.
 */
import type { Logger } from "../shared/logger.ts";
import type { EmailVerifier, VerificationOutcome } from "./email_verifier.ts";
import { verificationOutcomeSchema } from "./verification_schema.ts";

export interface RemoteVerifierOptions {
  /** Base URL of the verifier (`http://verifier:8788`), without `/verify`. */
  url: string;
  secret: string;
  /** The whole request's limit; set it above the verifier's `VERIFY_LOOKUP_SECONDS`. */
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Where a refusal of our secret is warned about (at most once per `warnEveryMs`). */
  logger?: Logger;
  /** Default one minute. */
  warnEveryMs?: number;
  /** Milliseconds now (default `Date.now`), for the warning's rate. */
  now?: () => number;
}

/** The warning a refusal of our credentials logs: no address, no secret. */
export const CREDENTIALS_REFUSED =
  "remote verifier refused our credentials: check that VERIFIER_SECRET matches the verifier's " +
  "(every find answers verification-unavailable until it does)";

const VERIFIER_ERROR: VerificationOutcome = {
  kind: "unavailable",
  why: "verifier-error",
  evidence: null,
};

export function createRemoteVerifier(options: RemoteVerifierOptions): EmailVerifier {
  const doFetch = options.fetch ?? fetch;
  const endpoint = verifyEndpoint(options.url);
  const now = options.now ?? Date.now;
  const warnEveryMs = options.warnEveryMs ?? 60_000;
  let lastWarning = -Infinity;
  let refusedSince = 0;
  const refused = (status: number) => {
    refusedSince++;
    if (now() - lastWarning < warnEveryMs) return;
    lastWarning = now();
    options.logger?.warn(CREDENTIALS_REFUSED, {
      status,
      verifier: verifierOrigin(options.url),
      refusals: refusedSince,
    });
    refusedSince = 0;
  };
  return {
    async verify(request) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), options.timeoutMs);
      try {
        const response = await doFetch(
          endpoint,
          verifyRequest(
            options.secret,
            { domain: request.domain, candidates: request.candidates },
            controller.signal,
          ),
        );
        if (response.status !== 200) {
          await response.body?.cancel();
          if (response.status === 401 || response.status === 403) refused(response.status);
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

function verifyEndpoint(url: string): string {
  return `${url.replace(/\/+$/, "")}/verify`;
}

/** `POST /verify` with our secret and a JSON body. */
function verifyRequest(secret: string, body: unknown, signal: AbortSignal): RequestInit {
  return {
    method: "POST",
    headers: {
      "Authorization": `Bearer ${secret}`,
      "Content-Type": "application/json",
      "Accept": "application/json",
    },
    body: JSON.stringify(body),
    signal,
  };
}

/** The verifier's origin, for logs (never a path or credentials). */
function verifierOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(unparsable)";
  }
}

/**
 * One request at start-up that tells whether the verifier accepts our secret, without verifying
 * anything: `POST /verify` with an empty object is 400 to a caller it accepts and 401 to one it
 * does not (`verifier_server.ts` checks the secret first). `unreachable` when it does not answer
 * (it may start later: a warning, never a refusal to start).
 */
export async function checkRemoteVerifierCredentials(
  options: Pick<RemoteVerifierOptions, "url" | "secret" | "fetch"> & { timeoutMs?: number },
): Promise<{ result: "accepted" | "refused" | "unreachable"; status: number | null }> {
  const doFetch = options.fetch ?? fetch;
  try {
    const response = await doFetch(
      verifyEndpoint(options.url),
      verifyRequest(options.secret, {}, AbortSignal.timeout(options.timeoutMs ?? 5_000)),
    );
    await response.body?.cancel();
    const status = response.status;
    if (status === 401 || status === 403) return { result: "refused", status };
    return { result: status === 400 || status === 200 ? "accepted" : "unreachable", status };
  } catch {
    return { result: "unreachable", status: null };
  }
}

/** The start-up check, logged: a warning when refused or unreachable, never thrown. */
export async function logRemoteVerifierCheck(
  options: Pick<RemoteVerifierOptions, "url" | "secret" | "fetch"> & { timeoutMs?: number },
  logger: Logger,
): Promise<void> {
  const { result, status } = await checkRemoteVerifierCredentials(options);
  const fields = { verifier: verifierOrigin(options.url), status };
  if (result === "accepted") logger.info("remote verifier accepts our credentials", fields);
  else if (result === "refused") logger.warn(CREDENTIALS_REFUSED, fields);
  else {
    logger.warn(
      "remote verifier not reachable at start (VERIFIER_URL); finds answer " +
        "verification-unavailable until it is",
      fields,
    );
  }
}
