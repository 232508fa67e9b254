/**
 * Operator CLI: `deno task admin <command> [options]`. Works beside a running server on the same
 * DATA_DIR (it talks to the server's embedded database through its socket) or DATABASE_URL.
 * Prints one JSON object on stdout; bad arguments (and values the service refuses as invalid) exit
 * 2 with a message on stderr; a missing workspace, key or member exits 1, and so does a bad
 * environment variable or a database that cannot be reached (one line on stderr, never a stack).
 */
import { parseArgs } from "node:util";
import { type Config, loadConfig } from "./domain/config/config.ts";
import { ServiceError } from "./domain/errors.ts";
import { type Database, openDatabase, type Sql } from "./domain/stores/database.ts";
import type { DbContext } from "./domain/context.ts";
import { migrate } from "./domain/stores/migrate.ts";
import { createWorkspace } from "./domain/workspaces/create_workspace.ts";
import { createApiKey } from "./domain/auth/create_api_key.ts";
import { revokeApiKey } from "./domain/auth/revoke_api_key.ts";
import { createMember } from "./domain/members/create_member.ts";
import { resetMemberPassword } from "./domain/members/reset_member_password.ts";
import { removeMember } from "./domain/members/remove_member.ts";
import { grantPoints } from "./domain/billing/grant_points.ts";
import { readBalance } from "./domain/billing/balance.ts";
import { recentEntries } from "./domain/billing/recent_entries.ts";
import { type ImportPeopleResult, type NameSplit } from "./domain/directory/import_people.ts";
import { importFile } from "./domain/directory/import_file.ts";
import { demoExamples } from "./domain/directory/demo_examples.ts";
import { importDemoPeople } from "./domain/directory/import_demo_people.ts";
import { addDoNotContact } from "./domain/do_not_contact/add_do_not_contact.ts";
import { removeDoNotContact } from "./domain/do_not_contact/remove_do_not_contact.ts";
import { listDoNotContact } from "./domain/do_not_contact/list_do_not_contact.ts";
import {
  type DoNotContactTarget,
  parseDoNotContactEntry,
} from "./domain/do_not_contact/do_not_contact_entry.ts";
import type { AuditActor } from "./domain/audit/audit_event.ts";
import { listAuditLog, MAX_AUDIT_PAGE } from "./domain/audit/list_audit_log.ts";
import { erasePerson } from "./domain/privacy/erase_person.ts";
import { exportPerson } from "./domain/privacy/export_person.ts";
import { createPersonKeys } from "./domain/privacy/person_keys.ts";
import { createFingerprinter } from "./domain/idempotency/fingerprint.ts";
import { loadOrCreateSecret } from "./domain/stores/server_secret.ts";
import { openKv } from "./domain/stores/kv.ts";
import { checkServerSecret } from "./domain/stores/secret_check.ts";
import { readNames } from "./domain/name_parse/read_names.ts";
import type { Logger } from "./domain/shared/logger.ts";
import type { NameModel } from "./model/types.ts";
import { loadServiceNameModel } from "./server/load_service_name_model.ts";

const USAGE = `usage: deno task admin <command> [options]
  workspace create --name NAME [--points N]        → {"workspaceId","apiKey"}
  key create --workspace ID [--expires-in SECONDS] [--name NAME]
                                                   → {"keyId","name","apiKey","expiresAt"}
  key revoke --key-id ID                           → {"keyId","workspaceId","revokedAt"}
  user create --workspace ID --email E             → a member who signs in to the web app:
                                                     {"memberId","email","oneTimePassword"};
                                                     a new password is chosen at first sign-in
  user reset-password --email E                    → a new one-time password; the member's
                                                     sessions end
  user remove --email E                            → takes the member out of their workspace;
                                                     their sessions end: {"memberId",…,"removed"}
  points grant --workspace ID --points N           → the new balance
  balance --workspace ID                           → the balance and the latest ledger entries
  import FILE.jsonl                                → loads people into the directory; one JSON
                                                     object a line, {"name",…}; bad lines are
                                                     listed by number and the rest loaded (exit 1
                                                     when any line was rejected); people on the
                                                     suppression list are skipped ("suppressed")
  demo [--people N]                                → fills the directory with N demo people
                                                     (default 200) and names a few to try
  dnc add --workspace ID (--email E | --domain D)  → puts an address or a domain (which covers
                                                     its subdomains) on the workspace's
                                                     do-not-contact list: {…,"created"}
  dnc remove --workspace ID (--email E | --domain D) → takes it off: {…,"removed"}
  dnc list --workspace ID                          → {"workspaceId","entries":[{"kind","value",
                                                     "createdAt"}]}
  privacy erase (--email E | --profile URL | --name N --domain D)
                                                   → suppresses the person service-wide and
                                                     erases every copy held: what was removed,
                                                     by kind and count
  privacy export (--email E | --profile URL | --name N --domain D)
                                                   → every field held about the person, with
                                                     its source, URL and date
  audit [--workspace ID] [--cursor N] [--limit N]  → the audit log, newest first: {"entries",
                                                     "nextCursor"}`;

class UsageError extends Error {}

type Options = Record<string, string | undefined>;

/** What a command may use besides its options. */
interface CommandContext {
  /** The command's positional arguments (named by `Command.positionals`). */
  args: string[];
  config: Config;
  /** Progress lines (stderr); stdout carries only the one JSON answer. */
  progress(line: string): void;
}

interface Command {
  options: string[];
  /** Names of required positional arguments, for messages. */
  positionals?: string[];
  run(ctx: DbContext, options: Options, context: CommandContext): Promise<unknown>;
}

/** A command's answer that also sets a non-zero exit code (still printed on stdout). */
class PartialSuccess {
  constructor(readonly output: unknown, readonly exitCode: number) {}
}

const DEMO_PEOPLE = 200;
/** The operator CLI, as the audit log names it. */
const CLI: AuditActor = { kind: "cli" };
/** 100 years: far beyond any key's useful life, and well inside what a date can hold. */
const MAX_EXPIRES_IN_SECONDS = 100 * 365 * 24 * 3600;

const COMMANDS: Record<string, Command> = {
  "workspace create": {
    options: ["name", "points"],
    run: (ctx, o) =>
      createWorkspace(ctx, {
        name: required(o, "name"),
        points: optionalInteger(o, "points", 0),
        actor: CLI,
      })
        .then(({ workspaceId, apiKey }) => ({ workspaceId, apiKey })),
  },
  "key create": {
    options: ["workspace", "expires-in", "name"],
    run: async (ctx, o) => {
      const workspaceId = required(o, "workspace");
      await mustExist(ctx, workspaceId);
      const seconds = optionalInteger(o, "expires-in", 0, 1);
      if (seconds > MAX_EXPIRES_IN_SECONDS) {
        throw new UsageError(
          `--expires-in must be at most ${MAX_EXPIRES_IN_SECONDS} seconds (100 years)`,
        );
      }
      const key = await createApiKey(ctx, {
        workspaceId,
        expiresAt: seconds ? new Date(Date.now() + seconds * 1000) : null,
        name: o.name ?? null,
        actor: CLI,
      });
      return { keyId: key.keyId, name: key.name, apiKey: key.apiKey, expiresAt: key.expiresAt };
    },
  },
  "key revoke": {
    options: ["key-id"],
    run: (ctx, o) => revokeApiKey(ctx, { keyId: required(o, "key-id"), actor: CLI }),
  },
  "user create": {
    options: ["workspace", "email"],
    run: async (ctx, o) => {
      const workspaceId = required(o, "workspace");
      await mustExist(ctx, workspaceId);
      return await createMember(ctx, { workspaceId, email: required(o, "email"), actor: CLI });
    },
  },
  "user reset-password": {
    options: ["email"],
    run: (ctx, o) => resetMemberPassword(ctx, { email: required(o, "email") }),
  },
  "user remove": {
    options: ["email"],
    run: (ctx, o) => removeMember(ctx, { email: required(o, "email"), actor: CLI }),
  },
  "points grant": {
    options: ["workspace", "points"],
    run: async (ctx, o) => {
      const workspaceId = required(o, "workspace");
      const points = optionalInteger(o, "points", 0, 1);
      if (!points) throw new UsageError("--points is required");
      return { workspaceId, balance: await grantPoints(ctx, { workspaceId, points, actor: CLI }) };
    },
  },
  "balance": {
    options: ["workspace"],
    run: async (ctx, o) => {
      const workspaceId = required(o, "workspace");
      await mustExist(ctx, workspaceId);
      return {
        workspaceId,
        balance: await readBalance(ctx, workspaceId),
        entries: await recentEntries(ctx, { workspaceId, limit: 20 }),
      };
    },
  },
  "import": {
    options: [],
    positionals: ["FILE.jsonl"],
    run: async (ctx, _o, { args, config, progress }) => {
      const summary = await importFile({ ...ctx, ...await privacyContext(ctx, config) }, {
        path: args[0],
        splitNames: nameSplitter(config.modelPath, progress),
        network: config.network,
        progress,
      });
      return summary.rejected ? new PartialSuccess(summary, 1) : summary;
    },
  },
  "demo": {
    options: ["people"],
    run: async (ctx, o) => {
      const people = optionalInteger(o, "people", DEMO_PEOPLE, 1);
      if (people > 1_000_000) throw new UsageError("--people must be at most 1000000");
      const { records, result } = await importDemoPeople(ctx, { people, now: new Date() });
      return { people, ...importCounts(result), tryThese: demoExamples(records) };
    },
  },
  "dnc add": {
    options: ["workspace", "email", "domain"],
    run: async (ctx, o) => {
      const { workspaceId, target } = await dncTarget(ctx, o);
      return await addDoNotContact(ctx, { workspaceId, ...target, actor: CLI });
    },
  },
  "dnc remove": {
    options: ["workspace", "email", "domain"],
    run: async (ctx, o) => {
      const { workspaceId, target } = await dncTarget(ctx, o);
      return await removeDoNotContact(ctx, { workspaceId, ...target, actor: CLI });
    },
  },
  "dnc list": {
    options: ["workspace"],
    run: async (ctx, o) => {
      const workspaceId = required(o, "workspace");
      await mustExist(ctx, workspaceId);
      return { workspaceId, entries: await listDoNotContact(ctx, { workspaceId }) };
    },
  },
  "privacy erase": {
    options: ["email", "profile", "name", "domain"],
    run: async (ctx, o, { config }) => {
      const target = privacyTarget(o);
      const kv = await openKv(config.kvPath);
      try {
        return await erasePerson({ ...ctx, ...await privacyContext(ctx, config), kv }, {
          ...target,
          actor: CLI,
        });
      } finally {
        kv.close();
      }
    },
  },
  "privacy export": {
    options: ["email", "profile", "name", "domain"],
    run: async (ctx, o, { config }) =>
      exportPerson({ ...ctx, ...await privacyContext(ctx, config) }, privacyTarget(o)),
  },
  "audit": {
    options: ["workspace", "cursor", "limit"],
    run: async (ctx, o) => {
      const limit = optionalInteger(o, "limit", 50, 1);
      if (limit > MAX_AUDIT_PAGE) throw new UsageError(`--limit must be at most ${MAX_AUDIT_PAGE}`);
      const workspaceId = o.workspace?.trim() || undefined;
      if (workspaceId) await mustExist(ctx, workspaceId);
      return await listAuditLog(ctx, {
        workspaceId,
        cursor: o.cursor === undefined ? undefined : optionalInteger(o, "cursor", 0, 1),
        limit,
      });
    },
  },
};

/** Whom a `privacy` command names: exactly one address, profile URL, or name with a domain. */
function privacyTarget(o: Options) {
  const given = [o.email, o.profile, o.name].filter((v) => v !== undefined).length;
  if (given !== 1 || (o.name === undefined) !== (o.domain === undefined)) {
    throw new UsageError("give exactly one of --email, --profile, or --name with --domain");
  }
  return { email: o.email, profile: o.profile, name: o.name, domain: o.domain };
}

/**
 * The keys of the suppression list (from the server secret, checked against the database's as
 * the server checks it: a list keyed under another secret would match nobody) and the network.
 */
async function privacyContext(ctx: DbContext, config: Config) {
  const secret = config.secret ?? await loadOrCreateSecret(config.dataDir);
  await checkServerSecret(
    ctx.db.sql as Sql,
    secret,
    config.secret ? { kind: "env" } : { kind: "file", path: `${config.dataDir}/secret` },
  );
  return {
    personKeys: createPersonKeys(secret, config.network),
    fingerprint: createFingerprinter(secret),
    settings: { network: config.network },
  };
}

/**
 * The workspace and the one address or domain of a `dnc add`/`dnc remove`: a missing or
 * malformed option is a usage error (exit 2), checked before the workspace (exit 1).
 */
async function dncTarget(
  ctx: DbContext,
  o: Options,
): Promise<{ workspaceId: string; target: DoNotContactTarget }> {
  const workspaceId = required(o, "workspace");
  if ((o.email === undefined) === (o.domain === undefined)) {
    throw new UsageError("give exactly one of --email or --domain");
  }
  const target = o.email !== undefined ? { email: o.email } : { domain: o.domain };
  try {
    parseDoNotContactEntry(target);
  } catch (error) {
    if (error instanceof ServiceError) throw new UsageError(`--${error.message}`);
    throw error;
  }
  await mustExist(ctx, workspaceId);
  return { workspaceId, target };
}

/** Given name and surname by the service's name model (loaded on first use; else the rule). */
function nameSplitter(
  modelPath: string | null,
  progress: (line: string) => void,
): (names: string[]) => Promise<(NameSplit | null)[]> {
  let model: Promise<NameModel | null> | null = null;
  const logger: Logger = {
    info() {},
    warn: (msg, fields) => progress(`import: ${msg} ${JSON.stringify(fields ?? {})}`),
    error: (msg, fields) => progress(`import: ${msg} ${JSON.stringify(fields ?? {})}`),
  };
  return async (names) => {
    model ??= loadServiceNameModel(modelPath, logger);
    const outcomes = await readNames(await model, names, "as-written");
    return outcomes.map((o) =>
      o.kind === "answer" ? { given: o.answer.given, surname: o.answer.surname } : null
    );
  };
}

function importCounts(result: ImportPeopleResult) {
  return {
    created: result.created,
    updated: result.updated,
    unchanged: result.unchanged,
    companies: { created: result.companiesCreated, updated: result.companiesUpdated },
  };
}

function required(options: Options, name: string): string {
  const value = options[name]?.trim();
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function optionalInteger(options: Options, name: string, fallback: number, min = 0): number {
  const raw = options[name];
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(
      min === 1
        ? `--${name} must be a positive integer (at most ${Number.MAX_SAFE_INTEGER})`
        : `--${name} must be an integer from ${min} to ${Number.MAX_SAFE_INTEGER}`,
    );
  }
  return Number(raw);
}

async function mustExist(ctx: DbContext, workspaceId: string): Promise<void> {
  const rows = await ctx.db.sql`SELECT 1 FROM workspaces WHERE id = ${workspaceId}`;
  if (rows.length === 0) throw new ServiceError("not_found", `No workspace with id ${workspaceId}`);
}

function parseCommand(
  args: string[],
): { name: string; command: Command; options: Options; positionals: string[] } {
  const words = args.filter((arg) => !arg.startsWith("--"));
  const name = [words.slice(0, 2).join(" "), words[0]].find((candidate) =>
    candidate && COMMANDS[candidate]
  );
  if (!name) {
    throw new UsageError(
      args.length ? `unknown command: ${words.slice(0, 2).join(" ")}` : "no command given",
    );
  }
  const command = COMMANDS[name];
  const rest = valuesAfterOptions(args.slice(name.split(" ").length), command.options);
  const { values, positionals } = parseArgs({
    args: rest,
    options: Object.fromEntries(
      command.options.map((option) => [option, { type: "string" as const }]),
    ),
    strict: true,
    allowPositionals: true,
  });
  const wanted = command.positionals ?? [];
  if (positionals.length > wanted.length) {
    throw new UsageError(`unexpected argument: ${positionals[wanted.length]}`);
  }
  if (positionals.length < wanted.length) {
    throw new UsageError(`${name}: ${wanted[positionals.length]} is required`);
  }
  return { name, command, options: values as Options, positionals };
}

/**
 * Every option of ours takes a value: the word after `--points` is its value even when it starts
 * with `-` (`--points -5`), so the option's own check can say what is wrong with it (the argument
 * parser would refuse it as "ambiguous"). A word starting with `--` is never taken as a value.
 */
function valuesAfterOptions(args: string[], options: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const next = args[i + 1];
    if (
      options.includes(arg.slice(2)) && arg.startsWith("--") && next !== undefined &&
      next.startsWith("-") && !next.startsWith("--")
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

export async function runAdmin(
  args: string[],
  env: Record<string, string | undefined>,
  io: { progress?: (line: string) => void } = {},
) {
  let parsed;
  try {
    parsed = parseCommand(args);
  } catch (error) {
    return { ok: false as const, exitCode: 2, message: `${(error as Error).message}\n${USAGE}` };
  }
  // The environment and the database: a bad variable or a database that cannot be reached is
  // one line naming the cause (the variable, the host; never a password), exit 1.
  let config: Config;
  let db: Database;
  try {
    config = loadConfig(env);
    db = await openDatabase({
      url: config.databaseUrl,
      pgliteDir: `${config.dataDir}/pglite`,
      poolSize: 2,
    });
  } catch (error) {
    return { ok: false as const, exitCode: 1, message: oneLine(error) };
  }
  try {
    try {
      await migrate(db.sql);
    } catch (error) {
      return { ok: false as const, exitCode: 1, message: `database: ${oneLine(error)}` };
    }
    const output = await parsed.command.run({ db }, parsed.options, {
      args: parsed.positionals,
      config,
      progress: io.progress ?? ((line) => console.error(line)),
    });
    if (output instanceof PartialSuccess) {
      return { ok: true as const, exitCode: output.exitCode, output: output.output };
    }
    return { ok: true as const, exitCode: 0, output };
  } catch (error) {
    // A value the service refuses (a key name with control characters, a grant past the largest
    // exact balance, a taken workspace name) is a bad argument too: exit 2.
    if (
      error instanceof UsageError ||
      (error instanceof ServiceError && error.code === "validation_error")
    ) {
      return { ok: false as const, exitCode: 2, message: `${error.message}\n${USAGE}` };
    }
    if (error instanceof ServiceError) {
      return { ok: false as const, exitCode: 1, message: error.message };
    }
    throw error;
  } finally {
    await db.close();
  }
}

/** An error's message on one line (its first line; never a stack). */
function oneLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0];
}

if (import.meta.main) {
  let result: Awaited<ReturnType<typeof runAdmin>>;
  try {
    result = await runAdmin(Deno.args, Deno.env.toObject());
  } catch (error) {
    // Anything unforeseen (a lost connection mid-command…): one line, exit 1.
    result = { ok: false, exitCode: 1, message: oneLine(error) };
  }
  if (result.ok) console.log(JSON.stringify(result.output));
  else console.error(`admin: ${result.message}`);
  Deno.exit(result.exitCode);
}
