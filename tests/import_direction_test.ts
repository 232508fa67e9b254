/**
 * The architecture's arrows, checked over every .ts and .tsx file: main.ts → server, routes →
 * domain → domain/stores; workers → domain; domain → model for types. `model/` imports nothing of
 * ours; `domain/` never imports Hono, routes, workers or the server plumbing; `routes/` never
 * touch stores, nor hold a database handle (`ctx.db`): they pass their context to a verb. And the
 * verbs of `domain/` take a context first (`DbContext`, `TxContext`), never a bare handle. And no
 * file reaches itself through its imports: a circle, even of type-only imports, ties modules that
 * should stand apart (the context depends on `domain/ports.ts`, which imports nothing of ours).
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const IMPORT =
  /(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm;

async function sourceFiles(dir: URL, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (["node_modules", "data", ".git"].includes(entry.name)) continue;
    const path = prefix + entry.name;
    if (entry.isDirectory) {
      out.push(...await sourceFiles(new URL(entry.name + "/", dir), path + "/"));
    } else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

function importsOf(path: string, text: string): { spec: string; target: string | null }[] {
  const result: { spec: string; target: string | null }[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    const target = spec.startsWith(".")
      ? new URL(spec, new URL(path, ROOT)).pathname.slice(ROOT.pathname.length)
      : null;
    result.push({ spec, target });
  }
  return result;
}

Deno.test("import direction: no forbidden edge", async () => {
  const files = await sourceFiles(ROOT);
  const violations: string[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    // Routes call verbs with their context, never holding the database themselves.
    if (file.startsWith("routes/") && /\bctx\.db\b|\.db\.sql\b/.test(text)) {
      violations.push(`${file}: routes never hold a database handle (pass ctx to the verb)`);
    }
    for (const { spec, target } of importsOf(file, text)) {
      const isTest = /_test\.tsx?$/.test(file);
      if (file.startsWith("model/") && target !== null && !target.startsWith("model/")) {
        violations.push(`${file} → ${spec}: model/ imports nothing of ours`);
      }
      if (file.startsWith("domain/") && !isTest) {
        if (spec === "hono" || spec.startsWith("hono/") || spec.startsWith("@hono/")) {
          violations.push(`${file} → ${spec}: domain/ never imports Hono`);
        }
        if (
          target &&
          (target.startsWith("routes/") || target === "main.ts" || target.startsWith("workers/") ||
            target.startsWith("server/"))
        ) {
          violations.push(
            `${file} → ${spec}: domain/ never imports routes, workers, server or main`,
          );
        }
      }
      if (file.startsWith("routes/") && target?.startsWith("domain/stores/")) {
        violations.push(`${file} → ${spec}: routes never touch stores`);
      }
    }
  }
  assert.ok(files.length > 50);
  assert.deepEqual(violations, []);
});

/**
 * The circles of a graph (Tarjan's strongly connected components of more than one file, or a
 * file importing itself), each as its files in order, with the edges that close it.
 */
function circlesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) circles.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return circles;
}

Deno.test("import circles: the finder sees a circle of type-only imports", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts", "d.ts"]],
    ["d.ts", []],
    ["e.ts", ["e.ts"]],
  ]);
  assert.deepEqual(circlesOf(graph), [["a.ts", "b.ts", "c.ts"], ["e.ts"]]);
  const text =
    `import type { A } from "./a.ts";\nexport type { B } from "./b.ts";\nimport "./c.ts";`;
  assert.deepEqual(importsOf("domain/x.ts", text).map((edge) => edge.target), [
    "domain/a.ts",
    "domain/b.ts",
    "domain/c.ts",
  ]);
});

Deno.test("import circles: no file reaches itself through its imports (type-only ones count)", async () => {
  const files = await sourceFiles(ROOT);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    graph.set(file, importsOf(file, text).flatMap(({ target }) => target ? [target] : []));
  }
  const circles = circlesOf(graph).map((circle) => {
    const members = new Set(circle);
    const edges = circle.flatMap((file) =>
      graph.get(file)!.filter((target) => members.has(target)).map((target) =>
        `${file} → ${target}`
      )
    );
    return `a circle through ${circle.join(", ")} (${edges.join("; ")}): move the shared type to ` +
      `the module that owns it, or a port's type to domain/ports.ts`;
  });
  assert.deepEqual(circles, []);
});

Deno.test("domain/ports.ts imports nothing of ours", async () => {
  const text = await Deno.readTextFile(new URL("domain/ports.ts", ROOT));
  assert.deepEqual(importsOf("domain/ports.ts", text).filter(({ target }) => target !== null), []);
});

/**
 * An exported function (declared, or an arrow bound to an exported const), the name of its first
 * parameter and that parameter's type (generics skipped).
 */
const EXPORTED_FUNCTION =
  /export\s+(?:(?:async\s+)?function\s*\*?\s*(\w+)\s*(?:<[^(]*?>)?|const\s+(\w+)\s*(?::[^=]*)?=\s*(?:async\s*)?(?:<[^(]*?>)?)\s*\(\s*(\w+)\s*(?::\s*([^,)=]+))?/g;

/** A bare database handle, whatever the parameter is called (`db: Sql`, `t: TransactionSql`). */
const HANDLE_TYPE = /^(?:Sql|TransactionSql|postgres\.\w*Sql|Database|Pick<Database\b)/;

/**
 * Exported functions of `domain/` that rightly take a handle first. The stores (`domain/stores/`)
 * are the plumbing that opens, migrates and vacuums the database, and are not listed.
 */
const TAKES_A_HANDLE: Record<string, string> = {
  "domain/directory/sql_json.ts asJson": "builds a fragment of a statement in that transaction",
  "domain/billing/charge_units.ts createCharger":
    "builds the long-lived charger on the ledger's own client (`db.ledgerSql`)",
};

Deno.test("the verb-signature check sees a handle under any name, declared or bound", () => {
  const firstOf = (text: string) =>
    [...text.matchAll(EXPORTED_FUNCTION)].map(([, declared, bound, first, type]) => ({
      name: declared ?? bound,
      first,
      handle: first === "sql" || first === "tx" || HANDLE_TYPE.test(type?.trim() ?? ""),
    }));
  assert.deepEqual(
    firstOf(`export async function a(\n  db: Sql,\n  id: string,\n) {}
export const b = async (t: TransactionSql, id: string) => {};
export function c<T>(ctx: DbContext, id: T) {}
export const d = (sql, id) => {};`),
    [
      { name: "a", first: "db", handle: true },
      { name: "b", first: "t", handle: true },
      { name: "c", first: "ctx", handle: false },
      { name: "d", first: "sql", handle: true },
    ],
  );
});

Deno.test("domain verbs take a context first, never a bare sql or tx", async () => {
  const files = (await sourceFiles(ROOT)).filter((file) =>
    file.startsWith("domain/") && !file.startsWith("domain/stores/") && !/_test\.tsx?$/.test(file)
  );
  const violations: string[] = [];
  const allowed = new Set<string>();
  for (const file of files) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    for (const [, declared, bound, first, type] of text.matchAll(EXPORTED_FUNCTION)) {
      const name = declared ?? bound;
      if (first !== "sql" && first !== "tx" && !HANDLE_TYPE.test(type?.trim() ?? "")) continue;
      const key = `${file} ${name}`;
      if (key in TAKES_A_HANDLE) allowed.add(key);
      else {
        violations.push(
          `${file}: ${name}(${first}, …) takes ctx: DbContext (pool) or TxContext (a step of ` +
            `the caller's transaction)`,
        );
      }
    }
  }
  assert.ok(files.length > 50);
  assert.deepEqual(violations, []);
  assert.deepEqual([...allowed].sort(), Object.keys(TAKES_A_HANDLE).sort(), "no stale exception");
});
