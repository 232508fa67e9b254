/**
 * `deno task fakes`: every outside service the lookups use, faked on 127.0.0.1 with a small world
 * the curl examples of the README and docs/api.md use, so the running service can be tried end
 * to end without any network. Serves until stopped.
 *
 * ```sh
 * deno task fakes --write-env /tmp/fakes.env &
 * until [ -s /tmp/fakes.env ]; do sleep 0.2; done
 * set -a; . /tmp/fakes.env; set +a; deno task start
 * ```
 *
 * The environment for `deno task start` (one `NAME=value` line each) goes to `--write-env` only
 * once every fake listens, written to a temporary file beside it and renamed into place, so a
 * reader never sees half of it; an old file of that name is removed first and the file again when
 * the fakes stop. Without `--write-env` it is printed to stdout. (Not `--env-file`: `npx` hands
 * that flag to Node, so `npx -y deno@2 task fakes --env-file …` never reaches this script.) The
 * fakes stop on SIGINT/SIGTERM and when their launcher (the parent process, e.g. `deno task`) goes
 * away, so no fake is left holding its ports.
 *
 * The world: `acme.test` (MX on 127.0.0.1; grace.hopper@ accepted, everyone else rejected),
 * `initech.test` (same host; peter.gibbons@ accepted), `catchall.test` (MX on 127.0.0.2,
 * accepts everything), `nomail.test` (a null MX); Wikidata knows Acme and Initech; the web search
 * knows the profiles of Grace Hopper (Acme) and Peter Gibbons (Initech) as the real network's
 * pages (`https://www.linkedin.com/in/…`, "… | LinkedIn": the service's default network);
 * Gravatar knows grace.hopper@acme.test (with a phone number, which the service drops); GitHub
 * knows peter.gibbons@initech.test. The demo directory's companies (`admin demo`) get mail too:
 * each `.example` domain has its MX on 127.0.0.1, where the first `DEMO_MAILBOXES` demo people
 * have a mailbox in their company's address pattern (everyone else is rejected), so find, verify
 * and domain search work on the demo data as on a real company's.
 */
import { profileResult, searchIndex, startFakeBrave } from "./brave_server.ts";
import { startFakeDns } from "./dns_server.ts";
import { startFakeGithub } from "./github_server.ts";
import { startFakeGravatar } from "./gravatar_server.ts";
import { FAKE_TLS_CA_FILE, startFakeSmtp } from "./smtp_server.ts";
import { startFakeWikidata } from "./wikidata_server.ts";
import { DEMO_COMPANIES, demoPeople, localPart } from "../../domain/directory/demo_people.ts";

export const FAKE_SEARCH_KEY = "fake-search-key";

/** How many demo people (the first of `admin demo`'s, whatever its `--people`) have a mailbox. */
const DEMO_MAILBOXES = 5_000;

/** The demo companies' domains, and a mailbox for each demo person in their company's pattern. */
function demoMail() {
  const zones: Record<string, { mx: { preference: number; exchange: string }[] }> = {};
  for (const company of DEMO_COMPANIES) {
    if (company.domain) {
      zones[company.domain] = { mx: [{ preference: 10, exchange: "mx1.example.test" }] };
    }
  }
  const mailboxes: Record<string, "accept"> = {};
  for (const person of demoPeople(DEMO_MAILBOXES, { now: 0 })) {
    const company = DEMO_COMPANIES.find((c) =>
      c.domain !== null && c.domain === person.companyDomain
    );
    if (!company?.domain || !person.given || !person.surname) continue;
    mailboxes[`${localPart(company.pattern, person.given, person.surname)}@${company.domain}`] =
      "accept";
  }
  return { zones, mailboxes };
}

export async function startFakeWorld() {
  const demo = demoMail();
  const dns = await startFakeDns({
    ...demo.zones,
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
        ...demo.mailboxes,
        "grace.hopper@acme.test": "accept",
        "peter.gibbons@initech.test": "accept",
      },
    },
    hostBehaviour: { "127.0.0.2": { catchAll: true } },
  });
  const wikidata = startFakeWikidata({
    companies: [
      { id: "Q99", label: "Acme", website: "https://www.acme.test/" },
      { id: "Q100", label: "Initech", website: "https://www.initech.test/" },
    ],
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
    // The key alone chooses Brave; the network is the default one, as with a real key.
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

/** `NAME=value` lines, one per variable. */
export function envLines(env: Record<string, string>): string {
  return Object.entries(env).map(([name, value]) => `${name}=${value}\n`).join("");
}

/** Writes `text` to `path` whole or not at all: a temporary file beside it, renamed into place. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${Deno.pid}.tmp`;
  try {
    await Deno.writeTextFile(temporary, text);
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}

function envFileArgument(args: string[]): string | null {
  const at = args.findIndex((arg) => arg === "--write-env" || arg.startsWith("--write-env="));
  if (at < 0) return null;
  const value = args[at].includes("=") ? args[at].slice("--write-env=".length) : args[at + 1];
  if (!value) throw new Error("--write-env needs a path");
  return value;
}

if (import.meta.main) {
  const envFile = envFileArgument(Deno.args);
  if (envFile) await Deno.remove(envFile).catch(() => {});
  const launcher = Deno.ppid;
  const world = await startFakeWorld();
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (envFile) await Deno.remove(envFile).catch(() => {});
    await world.close();
    Deno.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    Deno.addSignalListener(signal, () => stop(0));
  }
  // A launcher that goes away (killed, or its terminal closed) leaves this process to another
  // parent: stop with it rather than keep the fakes' ports.
  setInterval(() => {
    if (Deno.ppid !== launcher) stop(0);
  }, 250);
  if (envFile) {
    await writeAtomically(envFile, envLines(world.env));
    console.error(`fakes: serving on 127.0.0.1; environment in ${envFile}; stop with Ctrl-C`);
  } else {
    await Deno.stdout.write(new TextEncoder().encode(envLines(world.env)));
    console.error("fakes: serving on 127.0.0.1; stop with Ctrl-C");
  }
}
