/**
 * A mail world of real software on loopback: Debian's Postfix (one instance, one `smtpd` per
 * 127.0.0.x address, each with its own restrictions), postgrey in front of one of them, and
 * dnsmasq serving the `.test` zone that points the verifier at them. Our own SMTP and DNS fakes
 * only know what we thought of; these speak the protocols as the world does (greylisting keyed
 * on the triplet, sender checks, error limits, TLS as MTAs run it).
 *
 * Everything lives under one temp directory: Postfix's `config_directory`, `queue_directory`,
 * `data_directory` and its log file, postgrey's database and pid file, dnsmasq's pid file. The
 * system's own files (/etc/postfix/main.cf, syslog, /var/spool/postfix) are never touched, and
 * `stop()` stops exactly the processes started here. Nothing can leave the machine: no relay
 * host, `default_transport = error`, no DNS from Postfix, DATA refused by policy.
 *
 * The packages come from Debian (`ensureRealMailSoftware`), installed when missing if this runs
 * as root with apt; otherwise the suite says why in one line and skips.
 */
import { join } from "node:path";
import { ensureDebianPackages, exists } from "../debian_packages.ts";

/** The port every smtpd of the world listens on (one per 127.0.0.x address). */
export const REAL_SMTP_PORT = 2525;
/** Where dnsmasq answers for the `.test` zone. */
export const REAL_DNS_SERVER = "127.0.0.20:5353";
/** The HELO name, and so the sender domain, the service is configured with in this world. */
export const REAL_HELO_NAME = "verifier.test";

const POSTGREY_ADDRESS = "127.0.0.23:10023";
/** A second postgrey with a realistic delay (minutes in the wild; `slowGreylistSeconds` here). */
const SLOW_POSTGREY_ADDRESS = "127.0.0.35:10023";

/** The mail hosts: name, address, and what their smtpd does beyond the defaults. */
export const REAL_HOSTS = {
  /** Plain Postfix: known mailboxes, 550 5.1.1 for everyone else. */
  plain: { name: "mx.plain.test", address: "127.0.0.21" },
  /** Postfix asking postgrey about every recipient. */
  grey: { name: "mx.grey.test", address: "127.0.0.22" },
  /** STARTTLS with a self-signed certificate (opportunistic TLS, `may`). */
  selfSigned: { name: "mx.selfsigned.test", address: "127.0.0.24" },
  /** STARTTLS with a certificate from the test CA the service is told about. */
  trustedTls: { name: "mx.example.test", address: "127.0.0.25" },
  /** Every client refused: 554 5.7.1 Client host rejected. */
  policy: { name: "mx.policy.test", address: "127.0.0.26" },
  /** Our sender domain refused: 550 5.1.8 Sender address rejected: Domain not found. */
  sender: { name: "mx.sender.test", address: "127.0.0.27" },
  /** `smtpd_hard_error_limit = 3`: the fourth rejected command is answered 421 and the host hangs up. */
  errorLimit: { name: "mx.limits.test", address: "127.0.0.28" },
  /** Nothing listens here: the preferred MX of twomx.test is dead. */
  dead: { name: "mx1.twomx.test", address: "127.0.0.29" },
  /** Postfix asking the second postgrey (`slowGreylistSeconds`, e.g. 60 s). */
  slowGrey: { name: "mx.slowgrey.test", address: "127.0.0.36" },
} as const;

export type RealHost = keyof typeof REAL_HOSTS;

/** The mailboxes Postfix knows (virtual_mailbox_maps); `@domain` is a catch-all. */
const MAILBOXES = [
  "ada.lovelace@plain.test",
  "grace.hopper@plain.test",
  "jsmith@pattern.test",
  "mhamilton@pattern.test",
  "@catchall.test",
  "ada.lovelace@grey.test",
  "alan.turing@grey.test",
  "ada.lovelace@twomx.test",
  "ada.lovelace@afallback.test",
  "ada.lovelace@selfsigned.test",
  "ada.lovelace@tlsca.test",
  "ada.lovelace@policy.test",
  "ada.lovelace@sender.test",
  "ada.lovelace@limits.test",
  "info@plain.test",
  "@mailinator.com",
  "ada.lovelace@slowgrey.test",
  "grace.hopper@slowgrey.test",
];

const MAIL_DOMAINS = [
  "plain.test",
  "pattern.test",
  "catchall.test",
  "grey.test",
  "twomx.test",
  "afallback.test",
  "selfsigned.test",
  "tlsca.test",
  "policy.test",
  "sender.test",
  "limits.test",
  "mailinator.com",
  "slowgrey.test",
];

/** dnsmasq's zone: MX records, host addresses, a null MX, a dangling MX; all else NXDOMAIN. */
function dnsmasqZone(
  benchDomains: readonly string[],
  slowGreyDomains: readonly string[],
): string[] {
  const h = REAL_HOSTS;
  const mx = (domain: string, host: string, preference = 10) =>
    `--mx-host=${domain},${host},${preference}`;
  return [
    mx("plain.test", h.plain.name),
    mx("pattern.test", h.plain.name),
    mx("catchall.test", h.plain.name),
    mx("grey.test", h.grey.name),
    mx("twomx.test", h.dead.name, 10),
    mx("twomx.test", h.plain.name, 20),
    mx("selfsigned.test", h.selfSigned.name),
    mx("tlsca.test", h.trustedTls.name),
    mx("policy.test", h.policy.name),
    mx("sender.test", h.sender.name),
    mx("limits.test", h.errorLimit.name),
    mx("slowgrey.test", h.slowGrey.name),
    // An MX naming a host that has no address.
    mx("dangling.test", "ghost.dangling.test"),
    // A throwaway-address service of the disposable list, here a catch-all at mx.plain.test.
    mx("mailinator.com", h.plain.name),
    // A typo of gmail.com that exists nowhere: NXDOMAIN, as for every .test name not listed.
    "--local=/gmial.com/",
    // A null MX (RFC 7505): preference 0, the root name.
    "--dns-rr=nullmx.test,15,000000",
    // No MX: mail goes to the domain's own address.
    `--host-record=afallback.test,${h.plain.address}`,
    // Benchmark domains, each its own MX name (the per-host session limit is per name) on the
    // plain host.
    ...benchDomains.flatMap((domain) => [
      mx(domain, `mx.${domain}`),
      `--host-record=mx.${domain},${h.plain.address}`,
    ]),
    // Greylisting domains, each its own MX name on the slow postgrey'd host.
    ...slowGreyDomains.flatMap((domain) => [
      mx(domain, `mx.${domain}`),
      `--host-record=mx.${domain},${h.slowGrey.address}`,
    ]),
    // The MX hosts' addresses.
    ...Object.values(h).map((host) => `--host-record=${host.name},${host.address}`),
  ];
}

export interface RealMailWorld {
  dir: string;
  /** The CA that signed mx.example.test's certificate (for `VERIFY_TLS_CA_FILE`). */
  caFile: string;
  /** Postfix's log since the last `mark()` (or since the start). */
  logSince(mark: number): Promise<string>;
  /** The log's current length: pass it to `logSince` after a lookup. */
  mark(): Promise<number>;
  /** Stops everything started, and removes the directory. */
  stop(): Promise<void>;
}

/** Why the real-mail suite cannot run here, or null when it can (installing what is missing). */
export async function ensureRealMailSoftware(): Promise<string | null> {
  if (Deno.env.get("REAL_MAIL") === "off") return "REAL_MAIL=off";
  if (Deno.build.os === "linux" && Deno.uid() !== 0) {
    return "not root: Postfix's master must start as root";
  }
  return await ensureDebianPackages([
    { package: "postfix", program: "/usr/sbin/postfix" },
    { package: "postgrey", program: "/usr/sbin/postgrey" },
    { package: "dnsmasq-base", program: "/usr/sbin/dnsmasq" },
    { package: "swaks", program: "/usr/bin/swaks" },
    { package: "openssl", program: "/usr/bin/openssl" },
  ], {
    // "No configuration": the package installs no main.cf of its own and starts nothing.
    preseed: "postfix postfix/main_mailer_type select No configuration\n",
  });
}

const DIR_PREFIX = "real_mail_";

function tmpDir(): string {
  return Deno.env.get("TMPDIR") || "/tmp";
}

/**
 * Stops what an earlier run left behind (a killed test run cannot stop its world): every
 * `real_mail_*` directory in the temp folder names its own Postfix and pid files. Called with the
 * lock held, so none of them belongs to a live run.
 */
async function stopLeftovers(): Promise<void> {
  const tmp = tmpDir();
  for await (const entry of Deno.readDir(tmp)) {
    if (!entry.isDirectory || !entry.name.startsWith(DIR_PREFIX)) continue;
    const dir = join(tmp, entry.name);
    if (exists(join(dir, "postfix", "main.cf"))) {
      await run("postfix", ["-c", join(dir, "postfix"), "stop"]);
    }
    await killPidFile(join(dir, "postgrey.pid"));
    await killPidFile(join(dir, "postgrey-slow.pid"));
    await killPidFile(join(dir, "dnsmasq.pid"));
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Starts dnsmasq, postgrey and Postfix under a new temp directory. */
export async function startRealMailWorld(options: {
  greylistSeconds: number;
  /** postgrey's delay in front of mx.slowgrey.test (default 60 s, as greylisting in the wild). */
  slowGreylistSeconds?: number;
  /** More mailboxes Postfix knows, beyond the suite's own (benchmarks). */
  mailboxes?: readonly string[];
  /** More mail domains (benchmarks), each with its own MX name on the plain host. */
  benchDomains?: readonly string[];
  /** More mail domains, each with its own MX name on mx.slowgrey.test's host (slow postgrey). */
  slowGreyDomains?: readonly string[];
}): Promise<RealMailWorld> {
  // One world at a time on this machine (its addresses and ports are fixed): a second test run
  // or benchmark waits here. The lock goes with the process, so a killed run frees it.
  const lock = await Deno.open(join(tmpDir(), "real_mail.lock"), { create: true, write: true });
  await lock.lock(true);
  await stopLeftovers();
  const dir = await Deno.makeTempDir({ prefix: DIR_PREFIX });
  // postgrey and Postfix's daemons drop to their own users and must reach their files here.
  await Deno.chmod(dir, 0o755);
  const started: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const undo of started.reverse()) await undo().catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    lock.close();
  };
  try {
    const tls = await makeCertificates(dir);
    const benchDomains = options.benchDomains ?? [];
    const slowGreyDomains = options.slowGreyDomains ?? [];
    started.push(await startDnsmasq(dir, benchDomains, slowGreyDomains));
    started.push(await startPostgrey(dir, options.greylistSeconds));
    started.push(
      await startPostgrey(dir, options.slowGreylistSeconds ?? 60, {
        address: SLOW_POSTGREY_ADDRESS,
        name: "postgrey-slow",
      }),
    );
    const postfix = await startPostfix(
      dir,
      tls,
      [...MAILBOXES, ...options.mailboxes ?? []],
      [...benchDomains, ...slowGreyDomains],
    );
    started.push(postfix.stop);
    const logFile = join(dir, "postfix.log");
    return {
      dir,
      caFile: tls.caFile,
      mark: async () => (await Deno.readTextFile(logFile).catch(() => "")).length,
      logSince: async (mark) => {
        // postlogd writes asynchronously: give a just-ended session's lines a moment to land.
        await new Promise((resolve) => setTimeout(resolve, 300));
        return (await Deno.readTextFile(logFile).catch(() => "")).slice(mark);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startDnsmasq(
  dir: string,
  benchDomains: readonly string[],
  slowGreyDomains: readonly string[],
): Promise<() => Promise<void>> {
  const pidFile = join(dir, "dnsmasq.pid");
  const [address, port] = REAL_DNS_SERVER.split(":");
  await mustRun("dnsmasq", [
    "--no-resolv",
    "--no-hosts",
    "--no-poll",
    "--conf-file=/dev/null",
    `--port=${port}`,
    `--listen-address=${address}`,
    "--bind-interfaces",
    "--local=/test/",
    `--pid-file=${pidFile}`,
    "--user=root",
    ...dnsmasqZone(benchDomains, slowGreyDomains),
  ]);
  return () => killPidFile(pidFile);
}

async function startPostgrey(
  dir: string,
  delaySeconds: number,
  instance = { address: POSTGREY_ADDRESS, name: "postgrey" },
): Promise<() => Promise<void>> {
  const db = join(dir, instance.name);
  await Deno.mkdir(db);
  await mustRun("chown", ["postgrey:postgrey", db]);
  const empty = join(dir, `${instance.name}-whitelist`);
  await Deno.writeTextFile(empty, "");
  const pidFile = join(dir, `${instance.name}.pid`);
  await mustRun("postgrey", [
    `--inet=${instance.address}`,
    `--dbdir=${db}`,
    `--pidfile=${pidFile}`,
    `--delay=${delaySeconds}`,
    "--auto-whitelist-clients=0",
    `--whitelist-clients=${empty}`,
    `--whitelist-recipients=${empty}`,
    "--lookup-by-host",
    "--daemonize",
  ]);
  await waitForPort(instance.address);
  return () => killPidFile(pidFile);
}

interface Certificates {
  caFile: string;
  selfSigned: { cert: string; key: string };
  trusted: { cert: string; key: string };
}

/** A self-signed certificate for mx.selfsigned.test; the test CA's for mx.example.test. */
async function makeCertificates(dir: string): Promise<Certificates> {
  const cert = join(dir, "selfsigned.pem");
  const key = join(dir, "selfsigned-key.pem");
  await mustRun("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    `/CN=${REAL_HOSTS.selfSigned.name}`,
    "-keyout",
    key,
    "-out",
    cert,
  ]);
  const fixtures = new URL("../fakes/tls/", import.meta.url);
  // Postfix reads key files as root and refuses ones others can read.
  const trustedKey = join(dir, "trusted-key.pem");
  await Deno.copyFile(new URL("server-key.pem", fixtures), trustedKey);
  await Deno.chmod(trustedKey, 0o600);
  await Deno.chmod(key, 0o600);
  return {
    caFile: new URL("ca.pem", fixtures).pathname,
    selfSigned: { cert, key },
    trusted: { cert: new URL("server.pem", fixtures).pathname, key: trustedKey },
  };
}

async function startPostfix(
  dir: string,
  tls: Certificates,
  mailboxes: readonly string[],
  benchDomains: readonly string[],
): Promise<{ stop: () => Promise<void> }> {
  const config = join(dir, "postfix");
  await Deno.mkdir(config);
  await Deno.mkdir(join(dir, "queue"));
  await Deno.mkdir(join(dir, "data"));
  await mustRun("chown", ["postfix:postfix", join(dir, "data")]);
  await Deno.writeTextFile(join(config, "mailboxes"), mailboxes.map((a) => `${a} ok`).join("\n"));
  await Deno.writeTextFile(join(config, "client_reject.cidr"), "0.0.0.0/0 REJECT Access denied\n");
  await Deno.writeTextFile(
    join(config, "sender_reject"),
    `${REAL_HELO_NAME} 550 5.1.8 Domain not found\n`,
  );
  await Deno.writeTextFile(join(config, "asked"), "slowgrey.test WARN asked\n");
  await Deno.writeTextFile(join(config, "main.cf"), mainCf(dir, config, benchDomains));
  await Deno.writeTextFile(join(config, "master.cf"), masterCf(config, tls));
  await mustRun("postfix", ["-c", config, "check"]);
  await mustRun("postfix", ["-c", config, "start"]);
  for (const host of Object.values(REAL_HOSTS)) {
    if (host.address !== REAL_HOSTS.dead.address) {
      await waitForPort(`${host.address}:${REAL_SMTP_PORT}`);
    }
  }
  return {
    stop: async () => {
      await run("postfix", ["-c", config, "stop"]);
      // `stop` returns once master was told; wait for it to be gone.
      const pidFile = join(dir, "queue", "pid", "master.pid");
      for (let i = 0; i < 50 && exists(pidFile); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

function mainCf(dir: string, config: string, benchDomains: readonly string[]): string {
  return [
    "compatibility_level = 3.6",
    `queue_directory = ${join(dir, "queue")}`,
    `data_directory = ${join(dir, "data")}`,
    `maillog_file = ${join(dir, "postfix.log")}`,
    `maillog_file_prefixes = ${dir}`,
    "myhostname = mx.realmail.test",
    "mydomain = realmail.test",
    "mydestination =",
    "mynetworks = 192.0.2.1/32",
    "inet_interfaces = loopback-only",
    "inet_protocols = ipv4",
    // Nothing is ever relayed or delivered.
    "relayhost =",
    "relay_domains =",
    "default_transport = error:this test world delivers nothing",
    "relay_transport = error:this test world delivers nothing",
    // DATA is refused, so nothing is ever queued; were it, it would be discarded.
    "virtual_transport = discard:this test world delivers nothing",
    "alias_maps =",
    "alias_database =",
    "smtp_dns_support_level = disabled",
    "smtpd_peername_lookup = no",
    "smtpd_data_restrictions = reject",
    "biff = no",
    // Every accepted RCPT opens a queue file that QUIT then drops; with nothing ever delivered,
    // the queue manager returns no flow-control tokens, and after about 100 such files cleanup
    // waits in_flow_delay (1 s) before each next one. A server that delivers mail never runs
    // dry like this, so the test world turns the brake off.
    "in_flow_delay = 0s",
    `virtual_mailbox_domains = ${[...MAIL_DOMAINS, ...benchDomains].join(", ")}`,
    `virtual_mailbox_maps = texthash:${join(config, "mailboxes")}`,
    "smtpd_tls_security_level = none",
    "smtpd_tls_loglevel = 1",
    // Postfix's own defaults, stated: the politeness the verifier is tuned against.
    "smtpd_soft_error_limit = 10",
    "smtpd_hard_error_limit = 20",
    "smtpd_error_sleep_time = 1s",
    "",
  ].join("\n");
}

function masterCf(config: string, tls: Certificates): string {
  const h = REAL_HOSTS;
  const smtpd = (address: string, ...overrides: string[]) =>
    [`${address}:${REAL_SMTP_PORT} inet n - n - - smtpd`, ...overrides.map((o) => `  -o ${o}`)]
      .join("\n");
  const rcpt = "smtpd_recipient_restrictions";
  return [
    smtpd(h.plain.address, `myhostname=${h.plain.name}`),
    smtpd(
      h.grey.address,
      `myhostname=${h.grey.name}`,
      // As postgrey's own README sets it up: the unknown-recipient check (implicit, at the end)
      // comes after greylisting, so the catch-all probe is greylisted too.
      `${rcpt}=check_policy_service,inet:${POSTGREY_ADDRESS}`,
    ),
    smtpd(
      h.slowGrey.address,
      `myhostname=${h.slowGrey.name}`,
      // Every RCPT for slowgrey.test logged with its sender (a WARN line, then on as before):
      // Postfix logs no line for an accepted recipient otherwise.
      `${rcpt}=check_recipient_access,texthash:${join(config, "asked")},` +
        `check_policy_service,inet:${SLOW_POSTGREY_ADDRESS}`,
    ),
    smtpd(
      h.selfSigned.address,
      `myhostname=${h.selfSigned.name}`,
      "smtpd_tls_security_level=may",
      `smtpd_tls_cert_file=${tls.selfSigned.cert}`,
      `smtpd_tls_key_file=${tls.selfSigned.key}`,
    ),
    smtpd(
      h.trustedTls.address,
      `myhostname=${h.trustedTls.name}`,
      "smtpd_tls_security_level=may",
      `smtpd_tls_cert_file=${tls.trusted.cert}`,
      `smtpd_tls_key_file=${tls.trusted.key}`,
    ),
    smtpd(
      h.policy.address,
      `myhostname=${h.policy.name}`,
      `smtpd_client_restrictions=check_client_access,cidr:${join(config, "client_reject.cidr")}`,
    ),
    smtpd(
      h.sender.address,
      `myhostname=${h.sender.name}`,
      `smtpd_sender_restrictions=check_sender_access,texthash:${join(config, "sender_reject")}`,
    ),
    smtpd(
      h.errorLimit.address,
      `myhostname=${h.errorLimit.name}`,
      "smtpd_soft_error_limit=2",
      "smtpd_hard_error_limit=3",
    ),
    "cleanup unix n - n - 0 cleanup",
    "qmgr unix n - n 300 1 qmgr",
    "tlsmgr unix - - n 1000? 1 tlsmgr",
    "rewrite unix - - n - - trivial-rewrite",
    "bounce unix - - n - 0 bounce",
    "defer unix - - n - 0 bounce",
    "trace unix - - n - 0 bounce",
    "verify unix - - n - 1 verify",
    "flush unix n - n 1000? 0 flush",
    "proxymap unix - - n - - proxymap",
    "error unix - - n - - error",
    "discard unix - - n - - discard",
    "retry unix - - n - - error",
    "anvil unix - - n - 1 anvil",
    "scache unix - - n - 1 scache",
    "postlog unix-dgram n - n - 1 postlogd",
    "",
  ].join("\n");
}

/** What Postfix logged of the sessions in a piece of its log. */
export interface PostfixSessions {
  /** `connect from` lines: TCP sessions opened. */
  sessions: number;
  /** The command counts of each ended session (`ehlo=1 starttls=1 mail=1 rcpt=0/3 quit=1`). */
  ended: Array<Record<string, string>>;
  /** RCPT commands, summed over the ended sessions. */
  rcpts: number;
  /** Sessions that ended with our QUIT. */
  quits: number;
  /** DATA or BDAT commands seen (must stay 0). */
  dataCommands: number;
  /** `STARTTLS` handshakes that failed on the server side. */
  tlsFailures: number;
  /** TLS sessions established (`Anonymous TLS connection established` / `… TLS connection …`). */
  tlsSessions: number;
  /** 421 "too many errors" hang-ups. */
  errorLimitHits: number;
}

/** Reads Postfix's smtpd lines: the `disconnect from … ehlo=1 mail=1 rcpt=0/2 quit=1` summaries. */
export function readPostfixSessions(log: string): PostfixSessions {
  const lines = log.split("\n").filter((line) => line.includes("smtpd["));
  const ended = lines.filter((line) => /\bdisconnect from /.test(line)).map((line) => {
    const counts: Record<string, string> = {};
    const tail = line.slice(line.indexOf("disconnect from "));
    for (const match of tail.matchAll(/\b([a-z]+)=(\d+(?:\/\d+)?)/g)) counts[match[1]] = match[2];
    return counts;
  });
  const total = (value: string | undefined) => Number((value ?? "0").split("/").pop());
  return {
    sessions: lines.filter((line) => /\bconnect from /.test(line) && !/disconnect/.test(line))
      .length,
    ended,
    rcpts: ended.reduce((sum, counts) => sum + total(counts.rcpt), 0),
    quits: ended.filter((counts) => counts.quit === "1").length,
    dataCommands: ended.reduce((sum, c) => sum + total(c.data) + total(c.bdat), 0),
    tlsFailures:
      lines.filter((line) =>
        /SSL_accept error|TLS handshake failed|lost connection after STARTTLS/.test(line)
      ).length,
    tlsSessions: lines.filter((line) => /TLS connection established from/.test(line)).length,
    errorLimitHits: lines.filter((line) => /too many errors/.test(line)).length,
  };
}

export async function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ ok: boolean; output: string }> {
  const result = await new Deno.Command(command, { args, env, stdout: "piped", stderr: "piped" })
    .output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { ok: result.success, output: decode(result.stdout) + decode(result.stderr) };
}

export async function mustRun(command: string, args: string[]): Promise<void> {
  const result = await run(command, args);
  if (!result.ok) throw new Error(`${command} ${args.join(" ")} failed: ${result.output.trim()}`);
}

export async function killPidFile(pidFile: string): Promise<void> {
  const pid = Number((await Deno.readTextFile(pidFile).catch(() => "")).trim());
  if (!Number.isInteger(pid) || pid <= 1) return;
  try {
    Deno.kill(pid, "SIGTERM");
  } catch {
    return; // already gone
  }
  for (let i = 0; i < 50; i++) {
    try {
      Deno.kill(pid, "SIGCONT"); // throws once the process is gone
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function waitForPort(hostPort: string): Promise<void> {
  const [hostname, port] = hostPort.split(":");
  for (let i = 0; i < 100; i++) {
    try {
      const conn = await Deno.connect({ hostname, port: Number(port) });
      conn.close();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`nothing listens on ${hostPort}`);
}
