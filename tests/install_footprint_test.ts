/**
 * The light install: `deno task start` uses `deno.json`, whose npm packages are the
 * serving ones only, because Deno installs every package of the config's `imports` and of its
 * lockfile, reached or not. Development packages (training, evaluation, benchmarks, tests) live
 * in `deno.dev.json` (lockfile `deno.dev.lock`), which the dev tasks pass with `--config`.
 */
import assert from "node:assert/strict";

interface DenoConfig {
  tasks?: Record<string, string>;
  imports: Record<string, string>;
  compilerOptions?: unknown;
  unstable?: unknown;
  nodeModulesDir?: unknown;
  lock?: unknown;
}

const root = new URL("../", import.meta.url);
const readJson = async <T>(name: string): Promise<T> =>
  JSON.parse(await Deno.readTextFile(new URL(name, root))) as T;

/** `npm:/hono@4.13.19/` and `npm:hono@4.13.19` name the same package. */
const npmPackage = (target: string) => target.replace(/^npm:\/?/, "").replace(/\/$/, "");

Deno.test("deno.dev.json has every serving import, same version, same compiler settings", async () => {
  const serving = await readJson<DenoConfig>("deno.json");
  const dev = await readJson<DenoConfig>("deno.dev.json");
  for (const [name, target] of Object.entries(serving.imports)) {
    assert.equal(dev.imports[name], target, `deno.dev.json must map ${name} to ${target}`);
  }
  assert.deepEqual(dev.compilerOptions, serving.compilerOptions);
  assert.deepEqual(dev.unstable, serving.unstable);
  assert.deepEqual(dev.nodeModulesDir, serving.nodeModulesDir);
  assert.equal(dev.lock, "./deno.dev.lock", "the dev packages must not reach deno.lock");
});

Deno.test("deno.lock holds the serving packages only (what `deno task start` downloads)", async () => {
  const serving = await readJson<DenoConfig>("deno.json");
  const lock = await readJson<{ specifiers: Record<string, string> }>("deno.lock");
  const allowed = new Set(Object.values(serving.imports).map(npmPackage));
  const extra = Object.keys(lock.specifiers).filter((s) => !allowed.has(npmPackage(s)));
  assert.deepEqual(
    extra,
    [],
    "deno.lock names packages deno.json does not import: a test or script ran without " +
      "--config deno.dev.json (run it through its task), or a dev package went into deno.json",
  );
});

Deno.test("the tasks that need development packages run with deno.dev.json", async () => {
  const serving = await readJson<DenoConfig>("deno.json");
  const tasks = serving.tasks ?? {};
  for (const name of ["test", "check", "train", "eval:model", "bench:model", "fakes"]) {
    assert.match(tasks[name] ?? "", /--config deno\.dev\.json/, `task ${name}`);
  }
  for (const name of ["start", "dev", "admin", "verifier"]) {
    assert.doesNotMatch(tasks[name] ?? "", /deno\.dev\.json/, `task ${name} serves`);
  }
});
