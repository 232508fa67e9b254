import assert from "node:assert/strict";
import { ConfigError, loadConfig, MAX_PRICE, MAX_RATE_LIMIT } from "./config.ts";

/** The one-line message of the ConfigError `env` gives, or null when it loads. */
function refusal(env: Record<string, string>): string | null {
  try {
    loadConfig(env);
    return null;
  } catch (error) {
    assert.ok(error instanceof ConfigError, `not a ConfigError: ${error}`);
    assert.ok(!error.message.includes("\n"), "one line");
    return error.message;
  }
}

function assertRefused(env: Record<string, string>, variable: string) {
  const message = refusal(env);
  assert.ok(message !== null, `${JSON.stringify(env)} should be refused`);
  assert.ok(message.includes(variable), `"${message}" should name ${variable}`);
  return message;
}

Deno.test("config: every number has an upper bound, named in a one-line refusal", () => {
  const huge = "99999999999999999999";
  for (
    const [name, value] of [
      ["PORT", "70000"],
      ["PORT", huge],
      ["VERIFY_SMTP_PORT", "70000"],
      ["VERIFY_SMTP_PORT", "0"],
      ["PRICE_NAME_PARSE", huge],
      ["PRICE_FIND_EMAIL", String(MAX_PRICE + 1)],
      ["PRICE_FIND_COMPANY", huge],
      ["PRICE_NETWORK_SEARCH", huge],
      ["PRICE_ENRICH", huge],
      ["PRICE_LEAD", huge],
      ["RATE_LIMIT_NAME_PARSE", `60/${huge}`],
      ["RATE_LIMIT_NAME_PARSE", `${huge}/60`],
      ["RATE_LIMIT_ACCOUNT", `${MAX_RATE_LIMIT + 1}/60`],
      ["RATE_LIMIT_SIGN_IN", "10/31536001"],
      ["AUTH_CACHE_SECONDS", huge],
      ["SEARCH_CACHE_SECONDS", huge],
      ["VERIFY_CACHE_SECONDS", huge],
      ["VERIFIED_EMAIL_MAX_AGE_DAYS", huge],
      ["LEAD_SEARCH_POLL_MS", "0"],
      ["LEAD_SEARCH_POLL_MS", "5"],
      ["LEAD_SEARCH_POLL_MS", huge],
      ["LEAD_SEARCH_LEASE_SECONDS", "0"],
      ["LEAD_SEARCH_LEASE_SECONDS", huge],
      ["IDLE_TIMEOUT_SECONDS", huge],
      ["IDLE_TIMEOUT_SECONDS", "2147484"], // past setTimeout's 2^31 ms: the timer would fire at once
      ["STOP_GRACE_SECONDS", huge],
      ["SHUTDOWN_DRAIN_SECONDS", huge],
      ["SHUTDOWN_DRAIN_SECONDS", "-1"],
      ["VERIFY_TIMEOUT_SECONDS", "0"],
      ["VERIFY_TIMEOUT_SECONDS", huge],
      ["VERIFY_LOOKUP_SECONDS", "0"],
      ["VERIFY_LOOKUP_SECONDS", huge],
      ["VERIFY_GREYLIST_RETRY_SECONDS", huge],
      ["PROVIDER_TIMEOUT_SECONDS", "0"],
      ["PROVIDER_TIMEOUT_SECONDS", huge],
    ]
  ) {
    assertRefused({ [name]: value }, name);
  }
  // SVC_BOOTSTRAP_POINTS is read with a bootstrap key.
  const key = "svc_sk_" + "ab".repeat(24);
  assertRefused({ SVC_BOOTSTRAP_KEY: key, SVC_BOOTSTRAP_POINTS: huge }, "SVC_BOOTSTRAP_POINTS");
  assert.equal(
    loadConfig({ SVC_BOOTSTRAP_KEY: key, SVC_BOOTSTRAP_POINTS: String(Number.MAX_SAFE_INTEGER) })
      .bootstrap?.points,
    Number.MAX_SAFE_INTEGER,
  );
});

Deno.test("config: the bounds keep what the suite and the benchmarks use", () => {
  const config = loadConfig({
    PORT: "0",
    VERIFY_SMTP_PORT: "65535",
    PRICE_NAME_PARSE: String(MAX_PRICE),
    PRICE_LEAD: "0",
    RATE_LIMIT_ACCOUNT: "1000000000/60",
    RATE_LIMIT_SIGN_IN: "10/86400",
    RATE_LIMIT_NAME_PARSE: "40/1000000",
    LEAD_SEARCH_POLL_MS: "20",
    LEAD_SEARCH_LEASE_SECONDS: "0.15",
    VERIFY_TIMEOUT_SECONDS: "0.3",
    VERIFY_LOOKUP_SECONDS: "0.5",
    VERIFY_GREYLIST_RETRY_SECONDS: "0",
    IDLE_TIMEOUT_SECONDS: "0",
    AUTH_CACHE_SECONDS: "0",
    SEARCH_CACHE_SECONDS: "0",
  });
  assert.equal(config.port, 0);
  assert.equal(config.verify.smtpPort, 65535);
  assert.equal(config.prices.nameParse, MAX_PRICE);
  assert.equal(config.rateLimits.account.limit, 1_000_000_000);
  assert.equal(config.leadSearch.pollMs, 20);
  assert.equal(config.leadSearch.leaseMs, 150);
  assert.equal(config.verify.commandTimeoutMs, 300);
  // Every sum of prices times the largest count stays exact.
  assert.ok(MAX_PRICE * 6 * 1_000_000 < Number.MAX_SAFE_INTEGER);
});

Deno.test("config: DATABASE_URL must be a postgres URL; the password is never repeated", () => {
  for (const value of ["mysql://root:hunter2@db/x", "notaurl", "http://localhost:8787/"]) {
    const message = assertRefused({ DATABASE_URL: value }, "DATABASE_URL");
    assert.ok(!message.includes("hunter2"), message);
  }
  for (const value of ["postgres://u:p@127.0.0.1:5432/db", "postgresql://localhost/db"]) {
    assert.equal(loadConfig({ DATABASE_URL: value }).databaseUrl, value);
  }
});

Deno.test("config: booleans are true/1/yes or false/0/no, case ignored; others refused", () => {
  for (const name of ["LOG_REQUESTS", "VERIFY_ALLOW_PRIVATE_ADDRESSES"]) {
    const read = (value: string) => {
      const config = loadConfig({ [name]: value });
      return name === "LOG_REQUESTS" ? config.logRequests : config.verify.allowPrivateAddresses;
    };
    for (const value of ["true", "TRUE", "1", "yes", "Yes"]) assert.equal(read(value), true);
    for (const value of ["false", "FALSE", "0", "no", "No"]) assert.equal(read(value), false);
    assertRefused({ [name]: "banana" }, name);
  }
  assert.equal(loadConfig({}).logRequests, true);
});

Deno.test("config: provider URLs, HOST, KV_PATH and VERIFY_DNS_SERVER are checked by name", () => {
  for (const name of ["WIKIDATA_API_URL", "GRAVATAR_API_URL", "GITHUB_API_URL"]) {
    assertRefused({ [name]: "notaurl" }, name);
  }
  assertRefused({ VERIFIER_URL: "notaurl", VERIFIER_SECRET: "s" }, "VERIFIER_URL");
  assertRefused(
    { NETWORK_SEARCH_PROVIDER: "brave", BRAVE_SEARCH_KEY: "k", BRAVE_SEARCH_URL: "notaurl" },
    "BRAVE_SEARCH_URL",
  );
  assertRefused({ HOST: "bad host" }, "HOST");
  assert.equal(loadConfig({ HOST: "127.0.0.1" }).hostname, "127.0.0.1");
  assert.equal(loadConfig({ HOST: "localhost" }).hostname, "localhost");
  assertRefused({ KV_PATH: "ftp://x" }, "KV_PATH");
  assert.equal(loadConfig({ KV_PATH: ":memory:" }).kvPath, ":memory:");
  assert.equal(loadConfig({ KV_PATH: "https://kv.example/x" }).kvPath, "https://kv.example/x");

  for (const bad of ["bad", "cafe", "1.2.3.4:70000", "1.2.3.4:0", "300.1.1.1", "[1.2.3.4]:53"]) {
    assertRefused({ VERIFY_DNS_SERVER: bad }, "VERIFY_DNS_SERVER");
  }
  const dns = (value: string) => loadConfig({ VERIFY_DNS_SERVER: value }).verify.dnsServer;
  assert.deepEqual(dns("127.0.0.1:5353"), { ipAddr: "127.0.0.1", port: 5353 });
  assert.deepEqual(dns("1.1.1.1"), { ipAddr: "1.1.1.1", port: 53 });
  assert.deepEqual(dns("[::1]:5353"), { ipAddr: "::1", port: 5353 });
  assert.deepEqual(dns("2001:db8::1"), { ipAddr: "2001:db8::1", port: 53 });
});

Deno.test("config: VERIFY_CONNECT_TIMEOUT_SECONDS above VERIFY_TIMEOUT_SECONDS is refused", () => {
  assertRefused({ VERIFY_CONNECT_TIMEOUT_SECONDS: "30" }, "VERIFY_CONNECT_TIMEOUT_SECONDS");
  const config = loadConfig({ VERIFY_TIMEOUT_SECONDS: "20", VERIFY_CONNECT_TIMEOUT_SECONDS: "15" });
  assert.equal(config.verify.connectTimeoutMs, 15_000);
  // On Deno Deploy the 3 s default yields to a shorter VERIFY_TIMEOUT_SECONDS.
  const deploy = loadConfig({
    DENO_DEPLOYMENT_ID: "d",
    DATABASE_URL: "postgres://x/y",
    SVC_SECRET: "s",
    VERIFY_TIMEOUT_SECONDS: "2",
  });
  assert.equal(deploy.verify.connectTimeoutMs, 2_000);
});

Deno.test("config: the profile network defaults to the real one", () => {
  assert.deepEqual(loadConfig({}).network, {
    host: "linkedin.com",
    pathPrefix: "/in/",
    displayName: "LinkedIn",
  });
});

Deno.test("config: NETWORK_PROFILE_HOST, _PATH and NETWORK_TITLE_SUFFIX override each part", () => {
  const network = (env: Record<string, string>) => loadConfig(env).network;
  assert.equal(network({ NETWORK_PROFILE_HOST: "network.example" }).host, "network.example");
  // Case, a trailing dot and a leading www. are forms of the same host.
  assert.equal(network({ NETWORK_PROFILE_HOST: " WWW.Xing.com. " }).host, "xing.com");
  assert.equal(network({ NETWORK_PROFILE_HOST: "network.example" }).pathPrefix, "/in/");
  for (const path of ["/profile/", "profile", "/profile", "profile/"]) {
    assert.equal(network({ NETWORK_PROFILE_PATH: path }).pathPrefix, "/profile/", path);
  }
  assert.equal(network({ NETWORK_PROFILE_PATH: "/p/people/" }).pathPrefix, "/p/people/");
  assert.equal(network({ NETWORK_TITLE_SUFFIX: " XING " }).displayName, "XING");
  // Each variable alone leaves the other parts at their defaults.
  assert.deepEqual(network({ NETWORK_TITLE_SUFFIX: "Network" }), {
    host: "linkedin.com",
    pathPrefix: "/in/",
    displayName: "Network",
  });
  // Blank is unset.
  assert.deepEqual(
    network({ NETWORK_PROFILE_HOST: " ", NETWORK_PROFILE_PATH: "", NETWORK_TITLE_SUFFIX: " " }),
    loadConfig({}).network,
  );
});

Deno.test("config: a profile network that cannot be one is refused by name", () => {
  for (
    const host of [
      "https://linkedin.com",
      "linkedin.com/in",
      "linkedin.com:443",
      "localhost",
      "bad host.com",
      "-x.com",
      "127.0.0.1",
    ]
  ) assertRefused({ NETWORK_PROFILE_HOST: host }, "NETWORK_PROFILE_HOST");
  for (const path of ["/", "//", "/in?x=1", "/in/#", "/a b/"]) {
    assertRefused({ NETWORK_PROFILE_PATH: path }, "NETWORK_PROFILE_PATH");
  }
  for (const suffix of ["LinkedIn | Jobs", "x".repeat(61), "Link\u0007edIn"]) {
    assertRefused({ NETWORK_TITLE_SUFFIX: suffix }, "NETWORK_TITLE_SUFFIX");
  }
});

Deno.test("config: a search key alone chooses its provider; both keys need a choice", () => {
  assert.equal(loadConfig({}).webSearch.provider, "none");
  assert.equal(loadConfig({ BRAVE_SEARCH_KEY: "k" }).webSearch.provider, "brave");
  assert.equal(loadConfig({ SERPAPI_KEY: "k" }).webSearch.provider, "serpapi");
  assertRefused({ BRAVE_SEARCH_KEY: "k", SERPAPI_KEY: "s" }, "NETWORK_SEARCH_PROVIDER");
  const chosen = loadConfig({
    BRAVE_SEARCH_KEY: "k",
    SERPAPI_KEY: "s",
    NETWORK_SEARCH_PROVIDER: "serpapi",
  });
  assert.equal(chosen.webSearch.provider, "serpapi");
  // An explicit none wins over a key that is set.
  assert.equal(
    loadConfig({ BRAVE_SEARCH_KEY: "k", NETWORK_SEARCH_PROVIDER: "none" }).webSearch.provider,
    "none",
  );
});

Deno.test("config: ENRICH_MAX_AGE_DAYS", () => {
  assert.equal(loadConfig({}).enrichMaxAgeDays, 30);
  assert.equal(loadConfig({ ENRICH_MAX_AGE_DAYS: "0" }).enrichMaxAgeDays, 0);
  assertRefused({ ENRICH_MAX_AGE_DAYS: "3651" }, "ENRICH_MAX_AGE_DAYS");
});

Deno.test("config: BULK_RESULTS_RETENTION_DAYS", () => {
  assert.equal(loadConfig({}).bulkResultsRetentionDays, 30);
  assert.equal(loadConfig({ BULK_RESULTS_RETENTION_DAYS: "0" }).bulkResultsRetentionDays, 0);
  assert.equal(loadConfig({ BULK_RESULTS_RETENTION_DAYS: " 7 " }).bulkResultsRetentionDays, 7);
  for (const value of ["-1", "abc", "1.5", "3651"]) {
    const message = assertRefused(
      { BULK_RESULTS_RETENTION_DAYS: value },
      "BULK_RESULTS_RETENTION_DAYS",
    );
    assert.match(message, /integer from 0 to 3650/);
  }
});

Deno.test("config: METRICS_TOKEN, METRICS_WORKSPACE_LABELS and OTEL_DENO", () => {
  assert.deepEqual(loadConfig({}).observability, {
    metricsToken: null,
    workspaceLabels: false,
    tracing: false,
    tracingProtocol: "http/protobuf",
  });
  const on = loadConfig({
    METRICS_TOKEN: " scrape-token-0123456789 ",
    METRICS_WORKSPACE_LABELS: "yes",
    OTEL_DENO: "true",
    OTEL_DENO_TRACING: "false",
  });
  assert.deepEqual(on.observability, {
    metricsToken: "scrape-token-0123456789",
    workspaceLabels: true,
    tracing: true,
    tracingProtocol: "http/protobuf",
  });
  assert.throws(() => loadConfig({ METRICS_TOKEN: "short" }), /METRICS_TOKEN must be 16 to 256/);
  assert.throws(
    () => loadConfig({ METRICS_TOKEN: "has a space 0123456789" }),
    /METRICS_TOKEN must be .* with white space/,
  );
  assert.throws(
    () => loadConfig({ METRICS_WORKSPACE_LABELS: "sometimes" }),
    /METRICS_WORKSPACE_LABELS must be true or false/,
  );
  // Deno's own tracing would export each outgoing URL with its query: refused, with the reason.
  assert.throws(() => loadConfig({ OTEL_DENO: "true" }), /OTEL_DENO_TRACING=false/);
});

Deno.test("config: SHUTDOWN_DRAIN_SECONDS, 0 (no drain) unless set", () => {
  assert.equal(loadConfig({}).shutdownDrainMs, 0);
  assert.equal(loadConfig({ SHUTDOWN_DRAIN_SECONDS: "15" }).shutdownDrainMs, 15_000);
});

Deno.test("config: OTEL_EXPORTER_OTLP_PROTOCOL is honoured or refused by name", () => {
  const on = { OTEL_DENO: "true", OTEL_DENO_TRACING: "false" };
  const protocol = (env: Record<string, string>) =>
    loadConfig({ ...on, ...env }).observability.tracingProtocol;
  assert.equal(protocol({}), "http/protobuf");
  assert.equal(protocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }), "http/json");
  assert.equal(protocol({ OTEL_EXPORTER_OTLP_PROTOCOL: " http/protobuf " }), "http/protobuf");
  // The traces-specific variable wins, as the OpenTelemetry specification says.
  assert.equal(
    protocol({
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
    }),
    "http/json",
  );
  assert.throws(
    () => loadConfig({ ...on, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }),
    /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json, got "grpc"/,
  );
  assert.throws(
    () => loadConfig({ ...on, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/xml" }),
    /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http\/protobuf or http\/json/,
  );
  // Without our tracing the variable is another program's, and not ours to refuse.
  assert.equal(loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }).observability.tracing, false);
});
