/**
 * The ports as the domain uses them, each wrapped once (build_ports.ts, build_context.ts) so that
 * every call is a timed operation with an outcome: the adapters stay as they were, and the
 * outcome words are the ports' own (`results`, `not-found`, `rate-limited`…). Arguments (a
 * query, an address, a company name, a domain) are passed through and never reported.
 */
import type { ChargeUnits, EmailVerifier } from "../ports.ts";
import type { CompanyResolver } from "../providers/company_resolver/port.ts";
import type { DnsAnswer, DnsResolver } from "../providers/dns/port.ts";
import type { ReverseLookup } from "../providers/reverse_lookup/port.ts";
import type { WebSearch } from "../providers/web_search/port.ts";
import { type ProviderName, type Telemetry, timed } from "./telemetry.ts";

/** A provider's own name, when it is one of ours; anything else is reported as `other`. */
function providerName(name: string): ProviderName {
  const known: ProviderName[] = ["brave", "serpapi", "gravatar", "github", "wikidata"];
  return (known as string[]).includes(name) ? name as ProviderName : "other";
}

export function observedWebSearch(search: WebSearch, telemetry: Telemetry): WebSearch {
  const provider = providerName(search.name);
  return {
    name: search.name,
    search: (query, options) =>
      timed(
        telemetry,
        { kind: "provider_request", provider },
        () => search.search(query, options),
        (answer) => answer.kind === "results" ? "ok" : answer.why,
      ),
  };
}

export function observedReverseLookup(lookup: ReverseLookup, telemetry: Telemetry): ReverseLookup {
  const provider = providerName(lookup.source);
  return {
    source: lookup.source,
    lookup: (email) =>
      timed(
        telemetry,
        { kind: "provider_request", provider },
        () => lookup.lookup(email),
        (answer) => answer.kind === "unavailable" ? answer.why : answer.kind,
      ),
  };
}

export function observedCompanyResolver(
  resolver: CompanyResolver,
  telemetry: Telemetry,
): CompanyResolver {
  return {
    resolve: (companyName) =>
      timed(
        telemetry,
        { kind: "provider_request", provider: "wikidata" },
        () => resolver.resolve(companyName),
        (answer) => answer.kind,
      ),
  };
}

/** The remote verifier, as one provider: its outcome kind (and why, when unavailable). */
export function observedRemoteVerifier(
  verifier: EmailVerifier,
  telemetry: Telemetry,
): EmailVerifier {
  return {
    verify: (request) =>
      timed(
        telemetry,
        { kind: "provider_request", provider: "remote_verifier" },
        () => verifier.verify(request),
        (outcome) => outcome.kind === "unavailable" ? outcome.why : outcome.kind,
      ),
  };
}

export function observedDns(dns: DnsResolver, telemetry: Telemetry): DnsResolver {
  const outcomeOf = (answer: DnsAnswer<unknown>) => answer.kind;
  return {
    mx: (domain, options) =>
      timed(
        telemetry,
        { kind: "dns_question", type: "MX" },
        () => dns.mx(domain, options),
        outcomeOf,
      ),
    addresses: (host, options) =>
      timed(
        telemetry,
        { kind: "dns_question", type: "A/AAAA" },
        () => dns.addresses(host, options),
        outcomeOf,
      ),
  };
}

/** The ledger charge: its round trip timed, and the points it charged counted by operation. */
export function observedCharge(charge: ChargeUnits, telemetry: Telemetry): ChargeUnits {
  return async (requests) => {
    const results = await timed(
      telemetry,
      { kind: "ledger_charge" },
      () => charge(requests),
      () => "ok",
    );
    results.forEach((result, i) => {
      if (result.outcome !== "charged") return;
      const request = requests[i];
      telemetry.count({
        kind: "points_charged",
        operation: request.operation,
        points: request.amount,
        workspaceId: request.workspaceId,
      });
    });
    return results;
  };
}
