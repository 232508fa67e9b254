/**
 * A verifier that gathers the lookups arriving together for one domain into one `verifyBatch`,
 * so that they share SMTP sessions: one catch-all probe, the RCPTs of several people packed within
 * `VERIFY_MAX_RCPT_PER_SESSION`. A bulk job answers a domain's rows at once through it. A lookup
 * waits at most `windowMs` for company, and a batch holds at most `maxRequests` people, so that one
 * batch stays well inside the lookup's time bound. Each caller gets the outcome `verify` would have
 * given it. A verifier without `verifyBatch` (the remote verifier) is returned as it is.
 */
import type { EmailVerifier, VerificationOutcome, VerificationRequest } from "./email_verifier.ts";

interface Pending {
  requests: VerificationRequest[];
  settle: Array<{ resolve(outcome: VerificationOutcome): void; reject(error: unknown): void }>;
  timer: ReturnType<typeof setTimeout>;
}

export function coalesceByDomain(
  verifier: EmailVerifier,
  options: { windowMs: number; maxRequests: number },
): EmailVerifier {
  const batch = verifier.verifyBatch?.bind(verifier);
  if (!batch) return verifier;
  const pending = new Map<string, Pending>();

  const flush = (domain: string) => {
    const gathered = pending.get(domain);
    if (!gathered) return;
    pending.delete(domain);
    clearTimeout(gathered.timer);
    batch(gathered.requests).then(
      (outcomes) => gathered.settle.forEach((s, i) => s.resolve(outcomes[i])),
      (error) => gathered.settle.forEach((s) => s.reject(error)),
    );
  };

  return {
    verify(request) {
      const domain = String(request.domain ?? "").trim().toLowerCase().replace(/\.$/, "");
      return new Promise((resolve, reject) => {
        let gathered = pending.get(domain);
        if (!gathered) {
          gathered = {
            requests: [],
            settle: [],
            timer: setTimeout(() => flush(domain), options.windowMs),
          };
          pending.set(domain, gathered);
        }
        gathered.requests.push(request);
        gathered.settle.push({ resolve, reject });
        if (gathered.requests.length >= options.maxRequests) flush(domain);
      });
    },
    verifyBatch: batch,
  };
}
