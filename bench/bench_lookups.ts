/**
 * `deno task bench:lookups`: network searches/s and enrichments/s against fake providers on
 * 127.0.0.1 (Brave for web search, Gravatar and GitHub for enrich; the test suite's own fakes),
 * and the share answered from the result cache when the same workload runs again.
 *
 * The fakes run in this process, the service in its own (`main.ts`, the README's way). The first
 * pass asks for BENCH_PEOPLE people nobody asked before (every search reaches the provider); the
 * second pass asks for the same people again, as a client re-running a list would. A pass ends
 * when its list is done or after BENCH_SECONDS.
 */
import { profileResult, searchIndex, startFakeBrave } from "../tests/fakes/brave_server.ts";
import { startFakeGithub } from "../tests/fakes/github_server.ts";
import { startFakeGravatar } from "../tests/fakes/gravatar_server.ts";
import { BENCH_CONCURRENCY, BENCH_SECONDS } from "./http_support.ts";
import { closedLoop, type LoopResult, perSecond, startServiceProcess } from "./service_process.ts";
import { GIVEN as ALL_GIVEN, SURNAMES as ALL_SURNAMES } from "./bench_names.ts";

const PEOPLE = Number(Deno.env.get("BENCH_PEOPLE") ?? 300);
const GIVEN = ALL_GIVEN.slice(0, 10);
const SURNAMES = ALL_SURNAMES.slice(0, 8);
const COMPANIES = ["Acme", "Initech", "Globex", "Umbrella", "Hooli"];

/** Letters for a number (0 → "a", 26 → "ba"): keeps generated surnames apart, and alphabetic. */
function letters(n: number): string {
  let out = "";
  do {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}

/** Person i: a distinct name, an employer, an address. */
function person(i: number) {
  const given = GIVEN[i % GIVEN.length];
  const base = SURNAMES[Math.floor(i / GIVEN.length) % SURNAMES.length];
  const surname = `${base}${letters(i)}`;
  const company = COMPANIES[i % COMPANIES.length];
  return {
    given,
    surname,
    company,
    email: `${given}.${surname}@${company}.test`.toLowerCase(),
    slug: `${given}-${surname}`.toLowerCase(),
  };
}

const people = Array.from({ length: PEOPLE }, (_, i) => person(i));
const brave = startFakeBrave({
  key: "bench-key",
  results: searchIndex(people.map((p) =>
    profileResult({
      name: `${p.given} ${p.surname}`,
      title: "Engineer",
      company: p.company,
      location: "Berlin, Germany",
      slug: p.slug,
    })
  )),
});
const gravatar = startFakeGravatar({
  profiles: Object.fromEntries(
    people.filter((_, i) => i % 2 === 0).map((p) => [p.email, {
      display_name: `${p.given} ${p.surname}`,
      job_title: "Engineer",
      company: p.company,
      location: "Berlin",
    }]),
  ),
});
const github = startFakeGithub({ users: [] });
const service = await startServiceProcess({
  RATE_LIMIT_NETWORK_SEARCH: "1000000000/60",
  RATE_LIMIT_ENRICH: "1000000000/60",
  NETWORK_SEARCH_PROVIDER: "brave",
  BRAVE_SEARCH_URL: brave.url,
  BRAVE_SEARCH_KEY: "bench-key",
  GRAVATAR_API_URL: gravatar.url,
  GITHUB_API_URL: github.url,
  COMPANY_RESOLVER: "none",
});

type Answer = { data?: Record<string, unknown>; error?: { code: string } };
const searchOutcome = (body: Answer) =>
  body.data
    ? `${body.data.cached ? "cached" : "fresh"}:${
      (body.data.matches as unknown[]).length ? "match" : body.data.reason ?? "none"
    }`
    : String(body.error?.code);
const enrichOutcome = (body: Answer) =>
  body.data
    ? `${body.data.cached ? "cached" : "fresh"}:${body.data.found ? "found" : body.data.reason}`
    : String(body.error?.code);

/** Bodies for people 0…n-1 in order, then null. */
function walk(body: (p: ReturnType<typeof person>) => unknown) {
  let i = 0;
  return () => (i < people.length ? JSON.stringify(body(people[i++])) : null);
}

function cachedShare(result: LoopResult): string {
  const cached = Object.entries(result.outcomes).filter(([k]) => k.startsWith("cached"))
    .reduce((sum, [, n]) => sum + n, 0);
  return `${(100 * cached / Math.max(1, result.requests)).toFixed(1)}%`;
}

function report(label: string, result: LoopResult) {
  console.log(
    `${label.padEnd(34)} ${String(result.requests).padStart(6)} in ${result.seconds} s = ${
      String(perSecond(result)).padStart(5)
    }/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  from cache ${cachedShare(result)}  ${
      JSON.stringify(result.outcomes)
    }`,
  );
}

try {
  console.log(
    `bench:lookups  up to ${BENCH_SECONDS}s per pass, ${BENCH_CONCURRENCY} connections, ${PEOPLE} people, database ${service.databaseKind}, fake Brave + Gravatar + GitHub on 127.0.0.1`,
  );
  const searchUrl = `${service.base}/api/v1/network-search`;
  const search = (p: ReturnType<typeof person>) => ({
    firstName: p.given,
    lastName: p.surname,
    company: p.company,
  });
  report(
    "network-search, first pass",
    await closedLoop(searchUrl, walk(search), searchOutcome, BENCH_SECONDS),
  );
  report(
    "network-search, repeated",
    await closedLoop(searchUrl, walk(search), searchOutcome, BENCH_SECONDS),
  );

  const enrichUrl = `${service.base}/api/v1/enrich/email`;
  const enrich = (p: ReturnType<typeof person>) => ({ email: p.email });
  report(
    "enrich/email, first pass",
    await closedLoop(enrichUrl, walk(enrich), enrichOutcome, BENCH_SECONDS),
  );
  report(
    "enrich/email, repeated",
    await closedLoop(enrichUrl, walk(enrich), enrichOutcome, BENCH_SECONDS),
  );
  console.log(
    `provider requests: brave ${brave.requests.length}, gravatar ${gravatar.requests.length}, github ${github.requests.length}`,
  );
} finally {
  await service.stop();
  await brave.close();
  await gravatar.close();
  await github.close();
}
