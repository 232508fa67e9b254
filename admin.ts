/**
 * Operator CLI: `deno task admin <command> [options]`. Works beside a running server on the same
 * DATA_DIR (it talks to the server's embedded database through its socket) or DATABASE_URL.
 * Prints one JSON object on stdout; bad arguments exit 2 with a message on stderr.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "./domain/config/config.ts";
import { ServiceError } from "./domain/errors.ts";
import { openDatabase, type Sql } from "./domain/stores/database.ts";
import { migrate } from "./domain/stores/migrate.ts";
import { createWorkspace } from "./domain/workspaces/create_workspace.ts";
import { createApiKey } from "./domain/auth/create_api_key.ts";
import { revokeApiKey } from "./domain/auth/revoke_api_key.ts";
import { grantPoints } from "./domain/billing/grant_points.ts";
import { readBalance } from "./domain/billing/balance.ts";
import { recentEntries } from "./domain/billing/recent_entries.ts";

const USAGE = `usage: deno task admin <command> [options]
  workspace create --name NAME [--points N]        → {"workspaceId","apiKey"}
  key create --workspace ID [--expires-in SECONDS] → {"keyId","apiKey"}
  key revoke --key-id ID                           → {"keyId","workspaceId","revokedAt"}
  points grant --workspace ID --points N           → the new balance
  balance --workspace ID                           → the balance and the latest ledger entries`;

class UsageError extends Error {}

type Options = Record<string, string | undefined>;

interface Command {
  options: string[];
  run(sql: Sql, options: Options): Promise<unknown>;
}

const COMMANDS: Record<string, Command> = {
  "workspace create": {
    options: ["name", "points"],
    run: (sql, o) =>
      createWorkspace(sql, { name: required(o, "name"), points: optionalInteger(o, "points", 0) })
        .then(({ workspaceId, apiKey }) => ({ workspaceId, apiKey })),
  },
  "key create": {
    options: ["workspace", "expires-in"],
    run: async (sql, o) => {
      const workspaceId = required(o, "workspace");
      await mustExist(sql, workspaceId);
      const seconds = optionalInteger(o, "expires-in", 0, 1);
      const key = await createApiKey(sql, {
        workspaceId,
        expiresAt: seconds ? new Date(Date.now() + seconds * 1000) : null,
      });
      return { keyId: key.keyId, apiKey: key.apiKey, expiresAt: key.expiresAt };
    },
  },
  "key revoke": {
    options: ["key-id"],
    run: (sql, o) => revokeApiKey(sql, { keyId: required(o, "key-id") }),
  },
  "points grant": {
    options: ["workspace", "points"],
    run: async (sql, o) => {
      const workspaceId = required(o, "workspace");
      const points = optionalInteger(o, "points", 0, 1);
      if (!points) throw new UsageError("--points is required");
      return { workspaceId, balance: await grantPoints(sql, { workspaceId, points }) };
    },
  },
  "balance": {
    options: ["workspace"],
    run: async (sql, o) => {
      const workspaceId = required(o, "workspace");
      await mustExist(sql, workspaceId);
      return {
        workspaceId,
        balance: await readBalance(sql, workspaceId),
        entries: await recentEntries(sql, { workspaceId, limit: 20 }),
      };
    },
  },
};

function required(options: Options, name: string): string {
  const value = options[name]?.trim();
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function optionalInteger(options: Options, name: string, fallback: number, min = 0): number {
  const raw = options[name];
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`--${name} must be an integer >= ${min}`);
  }
  return Number(raw);
}

async function mustExist(sql: Sql, workspaceId: string): Promise<void> {
  const rows = await sql`SELECT 1 FROM workspaces WHERE id = ${workspaceId}`;
  if (rows.length === 0) throw new ServiceError("not_found", `No workspace with id ${workspaceId}`);
}

function parseCommand(args: string[]): { name: string; command: Command; options: Options } {
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
  const rest = args.slice(name.split(" ").length);
  const { values, positionals } = parseArgs({
    args: rest,
    options: Object.fromEntries(
      command.options.map((option) => [option, { type: "string" as const }]),
    ),
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  return { name, command, options: values as Options };
}

export async function runAdmin(args: string[], env: Record<string, string | undefined>) {
  let parsed;
  try {
    parsed = parseCommand(args);
  } catch (error) {
    return { ok: false as const, exitCode: 2, message: `${(error as Error).message}\n${USAGE}` };
  }
  const config = loadConfig(env);
  const db = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: `${config.dataDir}/pglite`,
    poolSize: 2,
  });
  try {
    await migrate(db.sql);
    const output = await parsed.command.run(db.sql, parsed.options);
    return { ok: true as const, exitCode: 0, output };
  } catch (error) {
    if (error instanceof UsageError) {
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

if (import.meta.main) {
  const result = await runAdmin(Deno.args, Deno.env.toObject());
  if (result.ok) console.log(JSON.stringify(result.output));
  else console.error(`admin: ${result.message}`);
  Deno.exit(result.exitCode);
}
