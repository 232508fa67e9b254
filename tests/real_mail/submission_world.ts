/**
 * A mail submission server and a mailbox of real software on loopback, for the opt-out message:
 * Debian's Postfix (an instance of its own, beside the verification world's) with one `smtpd` on
 * 127.0.0.40 that requires STARTTLS and SASL authentication (Dovecot's auth service, one user in
 * a passwd-file, over a socket in the temp directory) before it takes a message, and delivers mail for `optout.test` to Maildirs under its temp
 * directory (Postfix's `virtual` delivery agent), which the test reads. Anything else is refused:
 * no relay host, `default_transport = error`, no DNS.
 *
 * The server's certificate is made here, by a CA made here (for 127.0.0.40), so the service
 * verifies it as it would a real server's (`MAIL_SUBMISSION_CA_FILE`). Everything lives under
 * one temp directory; `stop()` stops exactly the Postfix started here. One such world at a time
 * on this machine (a lock file), apart from the verification world's lock: the two use other
 * addresses, directories and processes.
 */
import { join } from "node:path";
import { ensureDebianPackages, exists } from "../debian_packages.ts";
import { mustRun, run, waitForPort } from "./real_mail_world.ts";

export const SUBMISSION_ADDRESS = "127.0.0.40";
export const SUBMISSION_PORT = 2587;
export const MAIL_DOMAIN = "optout.test";
export const SUBMISSION_USER = "svc";

const DIR_PREFIX = "optout_mail_";
/** The mailbox owner (Postfix's virtual agent refuses root). */
const MAILBOX_UID = 65534;

export interface SubmissionWorld {
  /** `smtp://svc:…@127.0.0.40:2587` for `MAIL_SUBMISSION_URL`. */
  url: string;
  /** The CA that signed the server's certificate (for `MAIL_SUBMISSION_CA_FILE`). */
  caFile: string;
  /** The messages delivered to a mailbox of `optout.test`, as raw RFC 5322 text. */
  mailbox(localPart: string): Promise<string[]>;
  /** Waits until a mailbox holds `count` messages (Postfix delivers in the background). */
  waitForMail(localPart: string, count?: number): Promise<string[]>;
  log(): Promise<string>;
  stop(): Promise<void>;
}

/** Why the suite cannot run here, or null (installing what is missing). */
export async function ensureSubmissionSoftware(): Promise<string | null> {
  if (Deno.env.get("REAL_MAIL") === "off") return "REAL_MAIL=off";
  if (Deno.build.os === "linux" && Deno.uid() !== 0) {
    return "not root: Postfix's master must start as root";
  }
  return await ensureDebianPackages([
    { package: "postfix", program: "/usr/sbin/postfix" },
    // Postfix's Cyrus SASL reads its smtpd.conf from a fixed place only (Debian's build ignores
    // cyrus_sasl_config_path here), so authentication is Dovecot's, configured from our own file.
    { package: "dovecot-core", program: "/usr/sbin/dovecot" },
    { package: "openssl", program: "/usr/bin/openssl" },
  ], { preseed: "postfix postfix/main_mailer_type select No configuration\n" });
}

function tmpDir(): string {
  return Deno.env.get("TMPDIR") || "/tmp";
}

export async function startSubmissionWorld(
  options: { mailboxes: readonly string[] },
): Promise<SubmissionWorld> {
  const lock = await Deno.open(join(tmpDir(), "optout_mail.lock"), { create: true, write: true });
  await lock.lock(true);
  // What a killed run left behind (the lock is ours, so none belongs to a live run).
  for await (const entry of Deno.readDir(tmpDir())) {
    if (!entry.isDirectory || !entry.name.startsWith(DIR_PREFIX)) continue;
    const left = join(tmpDir(), entry.name);
    if (exists(join(left, "postfix", "main.cf"))) {
      await run("postfix", ["-c", join(left, "postfix"), "stop"]);
    }
    if (exists(join(left, "dovecot.conf"))) {
      await run("doveadm", ["-c", join(left, "dovecot.conf"), "stop"]);
    }
    await Deno.remove(left, { recursive: true }).catch(() => {});
  }
  const dir = await Deno.makeTempDir({ prefix: DIR_PREFIX });
  await Deno.chmod(dir, 0o755);
  const config = join(dir, "postfix");
  const stop = async () => {
    if (exists(join(dir, "dovecot.conf"))) {
      await run("doveadm", ["-c", join(dir, "dovecot.conf"), "stop"]);
    }
    if (exists(join(config, "main.cf"))) {
      await run("postfix", ["-c", config, "stop"]);
      const pidFile = join(dir, "queue", "pid", "master.pid");
      for (let i = 0; i < 50 && exists(pidFile); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    lock.close();
  };
  try {
    const password = crypto.randomUUID().replaceAll("-", "");
    const tls = await makeCertificates(dir);
    await Deno.mkdir(config);
    await Deno.mkdir(join(dir, "queue"));
    await Deno.mkdir(join(dir, "data"));
    await mustRun("chown", ["postfix:postfix", join(dir, "data")]);
    const mail = join(dir, "mail");
    await Deno.mkdir(mail);
    await Deno.chown(mail, MAILBOX_UID, MAILBOX_UID);
    await Deno.writeTextFile(
      join(config, "mailboxes"),
      options.mailboxes.map((local) => `${local}@${MAIL_DOMAIN} ${MAIL_DOMAIN}/${local}/`)
        .join("\n") + "\n",
    );
    const authSocket = await startDovecotAuth(dir, password);
    await Deno.writeTextFile(join(config, "main.cf"), mainCf(dir, config, tls, authSocket));
    await Deno.writeTextFile(join(config, "master.cf"), masterCf());
    await mustRun("postfix", ["-c", config, "check"]);
    await mustRun("postfix", ["-c", config, "start"]);
    await waitForPort(`${SUBMISSION_ADDRESS}:${SUBMISSION_PORT}`);
    const mailbox = async (local: string) => {
      const folder = join(mail, MAIL_DOMAIN, local, "new");
      const out: string[] = [];
      try {
        for await (const entry of Deno.readDir(folder)) {
          out.push(await Deno.readTextFile(join(folder, entry.name)));
        }
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
      return out;
    };
    return {
      url: `smtp://${SUBMISSION_USER}:${password}@${SUBMISSION_ADDRESS}:${SUBMISSION_PORT}`,
      caFile: tls.caFile,
      mailbox,
      waitForMail: async (local, count = 1) => {
        for (let i = 0; i < 200; i++) {
          const messages = await mailbox(local);
          if (messages.length >= count) return messages;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`no mail for ${local}@${MAIL_DOMAIN} after 20 s`);
      },
      log: () => Deno.readTextFile(join(dir, "postfix.log")).catch(() => ""),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Dovecot's auth service alone (no IMAP or POP: `protocols =`), from a configuration of our own,
 * its run directory and the socket Postfix asks under the temp directory. One user, its password
 * in a passwd-file. Returns the socket's path.
 */
async function startDovecotAuth(dir: string, password: string): Promise<string> {
  const run = join(dir, "dovecot-run");
  await Deno.mkdir(run);
  const users = join(dir, "dovecot-users");
  await Deno.writeTextFile(users, `${SUBMISSION_USER}:{PLAIN}${password}\n`);
  await mustRun("chown", ["dovecot:dovecot", users]);
  await Deno.chmod(users, 0o600);
  const socket = join(dir, "auth");
  const conf = join(dir, "dovecot.conf");
  await Deno.writeTextFile(
    conf,
    [
      "protocols =",
      `base_dir = ${run}`,
      `log_path = ${join(dir, "dovecot.log")}`,
      "ssl = no",
      "disable_plaintext_auth = no",
      "auth_mechanisms = plain login",
      `state_dir = ${run}`,
      "passdb {",
      "  driver = passwd-file",
      `  args = scheme=PLAIN username_format=%n ${users}`,
      "}",
      "userdb {",
      "  driver = static",
      "  args = uid=65534 gid=65534 home=/nonexistent",
      "}",
      "service auth {",
      `  unix_listener ${socket} {`,
      "    mode = 0660",
      "    user = postfix",
      "    group = postfix",
      "  }",
      "}",
      "",
    ].join("\n"),
  );
  // dovecot forks into the background: its output is not piped, or waiting for the pipes to
  // close would wait for the daemon.
  const started = await new Deno.Command("dovecot", {
    args: ["-c", conf],
    stdout: "null",
    stderr: "null",
  }).output();
  if (!started.success) throw new Error(`dovecot -c ${conf} failed: see ${dir}/dovecot.log`);
  for (let i = 0; i < 100 && !exists(socket); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!exists(socket)) throw new Error("dovecot's auth socket did not appear");
  return socket;
}

/** A CA and a certificate for 127.0.0.40 signed by it. */
async function makeCertificates(dir: string) {
  const caKey = join(dir, "ca-key.pem");
  const caFile = join(dir, "ca.pem");
  const key = join(dir, "server-key.pem");
  const csr = join(dir, "server.csr");
  const cert = join(dir, "server.pem");
  const ext = join(dir, "server.ext");
  await mustRun("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=opt-out test CA",
    "-keyout",
    caKey,
    "-out",
    caFile,
  ]);
  await mustRun("openssl", [
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-subj",
    `/CN=${SUBMISSION_ADDRESS}`,
    "-keyout",
    key,
    "-out",
    csr,
  ]);
  await Deno.writeTextFile(
    ext,
    [
      `subjectAltName=IP:${SUBMISSION_ADDRESS}`,
      "basicConstraints=CA:FALSE",
      "keyUsage=digitalSignature,keyEncipherment",
      "extendedKeyUsage=serverAuth",
      "",
    ].join("\n"),
  );
  await mustRun("openssl", [
    "x509",
    "-req",
    "-in",
    csr,
    "-CA",
    caFile,
    "-CAkey",
    caKey,
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    ext,
    "-out",
    cert,
  ]);
  // Postfix reads the key as root and refuses one others can read.
  await Deno.chmod(key, 0o600);
  return { caFile, cert, key };
}

function mainCf(
  dir: string,
  config: string,
  tls: { cert: string; key: string },
  authSocket: string,
): string {
  return [
    "compatibility_level = 3.6",
    `queue_directory = ${join(dir, "queue")}`,
    `data_directory = ${join(dir, "data")}`,
    `maillog_file = ${join(dir, "postfix.log")}`,
    `maillog_file_prefixes = ${dir}`,
    `myhostname = submission.${MAIL_DOMAIN}`,
    `mydomain = ${MAIL_DOMAIN}`,
    "mydestination =",
    "mynetworks = 192.0.2.1/32",
    "inet_interfaces = loopback-only",
    "inet_protocols = ipv4",
    // Nothing leaves: only optout.test is delivered, to the Maildirs here.
    "relayhost =",
    "relay_domains =",
    "default_transport = error:this test world delivers only to optout.test",
    "relay_transport = error:this test world delivers only to optout.test",
    "alias_maps =",
    "alias_database =",
    `virtual_mailbox_domains = ${MAIL_DOMAIN}`,
    `virtual_mailbox_maps = texthash:${join(config, "mailboxes")}`,
    `virtual_mailbox_base = ${join(dir, "mail")}`,
    `virtual_uid_maps = static:${MAILBOX_UID}`,
    `virtual_gid_maps = static:${MAILBOX_UID}`,
    "virtual_transport = virtual",
    "smtp_dns_support_level = disabled",
    "smtpd_peername_lookup = no",
    "biff = no",
    "in_flow_delay = 0s",
    // Submission as RFC 8314 asks: TLS before anything else, then authentication.
    "smtpd_tls_security_level = encrypt",
    `smtpd_tls_cert_file = ${tls.cert}`,
    `smtpd_tls_key_file = ${tls.key}`,
    "smtpd_tls_auth_only = yes",
    "smtpd_tls_loglevel = 1",
    "smtpd_sasl_auth_enable = yes",
    "smtpd_sasl_type = dovecot",
    `smtpd_sasl_path = ${authSocket}`,
    "smtpd_sasl_security_options = noanonymous",
    "smtpd_relay_restrictions = permit_sasl_authenticated, reject",
    "smtpd_recipient_restrictions = permit_sasl_authenticated, reject",
    "",
  ].join("\n");
}

function masterCf(): string {
  return [
    `${SUBMISSION_ADDRESS}:${SUBMISSION_PORT} inet n - n - - smtpd`,
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
    "virtual unix - n n - - virtual",
    "postlog unix-dgram n - n - 1 postlogd",
    "",
  ].join("\n");
}
