/**
 * The world of the find suites: fake DNS, SMTP and Wikidata servers on 127.0.0.1, and an app whose
 * real ports (DNS + SMTP engine, Wikidata resolver) are built from config pointing at them.
 */
import { buildPorts } from "../domain/build_ports.ts";
import { loadConfig } from "../domain/config/config.ts";
import { parseImportRecord } from "../domain/directory/import_people.ts";
import { openKv } from "../domain/stores/kv.ts";
import { FakeClock } from "../domain/shared/clock.ts";
import { createTestEnv, lookupCaller, type TestEnv } from "./harness.ts";
import type { Telemetry } from "../domain/observability/telemetry.ts";
import type { AppOptions } from "../routes/app.ts";
import { type FakeDns, startFakeDns } from "./fakes/dns_server.ts";
import {
  FAKE_TLS_CA_FILE,
  type FakeSmtp,
  type FakeSmtpBehaviour,
  startFakeSmtp,
} from "./fakes/smtp_server.ts";
import { type FakeWikidata, startFakeWikidata } from "./fakes/wikidata_server.ts";

export const PRICE_EMAIL = 10;
export const PRICE_COMPANY = 2;

/** The prices of the find suites (the email part at 10, the company part at 2). */
export const WORLD_PRICES = {
  nameParse: 1,
  findEmail: PRICE_EMAIL,
  findCompany: PRICE_COMPANY,
  networkSearch: 5,
  enrich: 10,
  lead: 2,
  verify: 3,
  domainSearch: 10,
};

export interface World {
  env: TestEnv;
  dns: FakeDns;
  smtp: FakeSmtp;
  wikidata: FakeWikidata;
  portsKv: Deno.Kv;
  close(): Promise<void>;
}

/** What a suite adds to the world: DNS records, and mailboxes the SMTP fake accepts. */
export interface WorldExtras {
  dns?: Parameters<typeof startFakeDns>[0];
  accept?: readonly string[];
  /** More companies the Wikidata fake knows. */
  companies?: NonNullable<Parameters<typeof startFakeWikidata>[0]>["companies"];
  /** Configuration over the world's own. */
  env?: Record<string, string>;
  /** Told of the work (metrics tests), with the app options that serve it. */
  telemetry?: Telemetry;
  app?: AppOptions;
  /** More fake mail hosts (a loopback address each) and how they answer. */
  mailHosts?: Record<string, FakeSmtpBehaviour>;
}

/** Fake DNS, SMTP and Wikidata, and an app whose ports are built from config pointing at them. */
export async function startWorld(extras: WorldExtras = {}): Promise<World> {
  const dns = await startFakeDns({
    ...extras.dns,
    // Verified by SMTP: mx1 answers.
    "acme.test": { mx: [{ preference: 10, exchange: "mx1.example.test" }] },
    "mx1.example.test": { a: ["127.0.0.1"] },
    // Every address accepted.
    "catchall.test": { mx: [{ preference: 10, exchange: "mx2.example.test" }] },
    "mx2.example.test": { a: ["127.0.0.2"] },
    // Greylisted forever.
    "grey.test": { mx: [{ preference: 10, exchange: "mx3.example.test" }] },
    "mx3.example.test": { a: ["127.0.0.3"] },
    // No mail: a null MX.
    "nomail.test": { mx: [{ preference: 0, exchange: "." }] },
    // Company mode's domains.
    "initech.test": { mx: [{ preference: 10, exchange: "mx1.example.test" }] },
    "hooli.test": { mx: [{ preference: 0, exchange: "." }] },
    // DNS that cannot answer now (SERVFAIL, REFUSED), and one slower than Deno's resolver waits.
    "servfail.test": { servfail: true },
    "refused.test": { refused: true },
    "slowdns.test": { mx: [{ preference: 10, exchange: "mx1.example.test" }], delayMs: 1100 },
    // MX hosts that do not exist, or whose name cannot be resolved now.
    "ghostmx.test": { mx: [{ preference: 10, exchange: "mx.nowhere.test" }] },
    "flakymx.test": { mx: [{ preference: 10, exchange: "mx.flaky.test" }] },
    "mx.flaky.test": { servfail: true },
  });
  const smtp = await startFakeSmtp({
    hosts: ["127.0.0.1", "127.0.0.2", "127.0.0.3", ...Object.keys(extras.mailHosts ?? {})],
    behaviour: {
      mailboxes: {
        "grace.hopper@acme.test": "accept",
        "peter.gibbons@initech.test": "accept",
        "ltorvalds@acme.test": "accept",
        ...Object.fromEntries((extras.accept ?? []).map((a) => [a, "accept" as const])),
      },
    },
    hostBehaviour: {
      "127.0.0.2": { catchAll: true },
      "127.0.0.3": { otherRecipients: "greylist" },
      ...extras.mailHosts,
    },
  });
  const wikidata = startFakeWikidata({
    companies: [
      { id: "Q100", label: "Initech", website: "https://www.initech.test/" },
      { id: "Q101", label: "Hooli", website: "https://hooli.test" },
      { id: "Q102", label: "Nowebsite Corp" },
      { id: "Q103", label: "Brokendns", website: "https://servfail.test" },
      ...(extras.companies ?? []),
    ],
  });
  const config = loadConfig({
    VERIFY_DNS_SERVER: dns.address,
    VERIFY_SMTP_PORT: String(smtp.port),
    VERIFY_TIMEOUT_SECONDS: "2",
    VERIFY_LOOKUP_SECONDS: "10",
    VERIFY_GREYLIST_RETRY_SECONDS: "0.1",
    VERIFY_TLS_CA_FILE: FAKE_TLS_CA_FILE,
    VERIFY_HELO_NAME: "verifier.test",
    // The fake mail hosts listen on 127.0.0.x.
    VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
    WIKIDATA_API_URL: wikidata.url,
    ...extras.env,
  });
  const clock = new FakeClock(Date.now());
  const portsKv = await openKv(":memory:");
  const ports = await buildPorts(config, { kv: portsKv, clock, telemetry: extras.telemetry });
  const env = await createTestEnv({
    telemetry: extras.telemetry,
    app: extras.app,
    clock,
    ports,
    network: config.network,
    config: { prices: WORLD_PRICES },
  });
  return {
    env,
    dns,
    smtp,
    wikidata,
    portsKv,
    close: async () => {
      await env.close();
      portsKv.close();
      await smtp.close();
      await dns.close();
      await wikidata.close();
    },
  };
}

/** A directory record of the import shape, validated as `admin import` validates each line. */
export function recordOf(value: unknown) {
  const parsed = parseImportRecord(value);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.record;
}

export function finder(env: TestEnv, apiKey: string) {
  return lookupCaller(env, apiKey, "/api/v1/find");
}

export async function pointsSpent(env: TestEnv, workspaceId: string): Promise<number> {
  const [row] = await env.db.sql<{ n: number }[]>`
    SELECT coalesce(sum(amount), 0)::int AS n FROM ledger_entries
     WHERE workspace_id = ${workspaceId} AND kind = 'charge'`;
  return row.n;
}
