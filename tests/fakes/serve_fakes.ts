/**
 * `deno task fakes`: every outside service the lookups use, faked on 127.0.0.1 with a small world
 * the README's curl examples use, so the running service can be tried end to end without any
 * network. Prints the environment for `deno task start` (one `NAME=value` line each) and serves
 * until stopped.
 *
 * ```sh
 * deno task fakes > /tmp/fakes.env &
 * sleep 3; set -a; . /tmp/fakes.env; set +a; deno task start
 * ```
 *
 * The world: `acme.test` (MX on 127.0.0.1; grace.hopper@ accepted, everyone else rejected),
 * `initech.test` (same host; peter.gibbons@ accepted), `catchall.test` (MX on 127.0.0.2,
 * accepts everything), `nomail.test` (a null MX); Wikidata knows Initech; the web search knows
 * the profiles of Grace Hopper (Acme) and Peter Gibbons (Initech); Gravatar knows
 * grace.hopper@acme.test (with a phone number, which the service drops); GitHub knows
 * peter.gibbons@initech.test.
 */
import { profileResult, searchIndex, startFakeBrave } from "./brave_server.ts";
import { startFakeDns } from "./dns_server.ts";
import { startFakeGithub } from "./github_server.ts";
import { startFakeGravatar } from "./gravatar_server.ts";
import { FAKE_TLS_CA_FILE, startFakeSmtp } from "./smtp_server.ts";
import { startFakeWikidata } from "./wikidata_server.ts";

export const FAKE_SEARCH_KEY = "fake-search-key";

export async function startFakeWorld() {
  const dns = await startFakeDns({
    "acme.test": { mx: [{ preference: 10, exchange: "mx1.example.test" }] },
    "initech.test": { mx: [{ preference: 10, exchange: "mx1.example.test" }] },
    "mx1.example.test": { a: ["127.0.0.1"] },
    "catchall.test": { mx: [{ preference: 10, exchange: "mx2.example.test" }] },
    "mx2.example.test": { a: ["127.0.0.2"] },
    "nomail.test": { mx: [{ preference: 0, exchange: "." }] },
  });
  const smtp = await startFakeSmtp({
    hosts: ["127.0.0.1", "127.0.0.2"],
    behaviour: {
      mailboxes: {
        "grace.hopper@acme.test": "accept",
        "peter.gibbons@initech.test": "accept",
      },
    },
    hostBehaviour: { "127.0.0.2": { catchAll: true } },
  });
  const wikidata = startFakeWikidata({
    companies: [{ id: "Q100", label: "Initech", website: "https://www.initech.test/" }],
  });
  const brave = startFakeBrave({
    key: FAKE_SEARCH_KEY,
    results: searchIndex([
      profileResult({
        name: "Grace Hopper",
        title: "Rear Admiral",
        company: "Acme",
        location: "Arlington, Virginia",
        slug: "grace-hopper",
      }),
      profileResult({
        name: "Peter Gibbons",
        title: "Software Engineer",
        company: "Initech",
        location: "Austin, Texas",
        slug: "peter-gibbons",
      }),
    ]),
  });
  const gravatar = startFakeGravatar({
    profiles: {
      "grace.hopper@acme.test": {
        display_name: "Grace Hopper",
        job_title: "Rear Admiral",
        company: "Acme",
        location: "Arlington, VA",
        description: "Computer pioneer",
        profile_url: "https://gravatar.com/gracehopper",
        verified_accounts: [{
          service_type: "twitter",
          service_label: "X",
          url: "https://x.com/gracehopper",
          is_hidden: false,
        }],
        contact_info: { cell_phone: "+1 415 555 0134" },
      },
    },
  });
  const github = startFakeGithub({
    users: [{
      login: "pgibbons",
      name: "Peter Gibbons",
      company: "@initech",
      location: "Austin, TX",
      bio: "Fixing the Y2K bug",
      emails: ["peter.gibbons@initech.test"],
    }],
  });
  const env: Record<string, string> = {
    VERIFY_DNS_SERVER: dns.address,
    VERIFY_SMTP_PORT: String(smtp.port),
    VERIFY_TLS_CA_FILE: FAKE_TLS_CA_FILE,
    VERIFY_HELO_NAME: "fakes.test",
    VERIFY_GREYLIST_RETRY_SECONDS: "1",
    // The fake mail hosts listen on 127.0.0.x: let the engine dial them.
    VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
    WIKIDATA_API_URL: wikidata.url,
    NETWORK_SEARCH_PROVIDER: "brave",
    BRAVE_SEARCH_URL: brave.url,
    BRAVE_SEARCH_KEY: FAKE_SEARCH_KEY,
    GRAVATAR_API_URL: gravatar.url,
    GITHUB_API_URL: github.url,
  };
  return {
    env,
    dns,
    smtp,
    brave,
    gravatar,
    github,
    wikidata,
    close: async () => {
      await Promise.all([
        dns.close(),
        smtp.close(),
        brave.close(),
        gravatar.close(),
        github.close(),
        wikidata.close(),
      ]);
    },
  };
}

if (import.meta.main) {
  const world = await startFakeWorld();
  for (const [name, value] of Object.entries(world.env)) console.log(`${name}=${value}`);
  console.error("fakes: serving on 127.0.0.1; stop with Ctrl-C");
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => world.close().then(() => Deno.exit(0)));
  }
}
