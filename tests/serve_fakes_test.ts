/**
 * `deno task fakes --write-env FILE`: the file appears whole, only once every fake listens (a
 * reader polling for it never sources half of it, nor an address nobody answers on), and the fakes
 * stop, removing the file, when their launcher goes away.
 */
import assert from "node:assert/strict";

const SCRIPT = new URL("./fakes/serve_fakes.ts", import.meta.url).pathname;
const CONFIG = new URL("../deno.dev.json", import.meta.url).pathname;

async function waitFor<T>(check: () => Promise<T | null>, ms: number): Promise<T> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const value = await check();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not within ${ms} ms`);
}

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

Deno.test("fakes: the env file appears whole once all listen; they stop with their launcher", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fakes_test_" });
  const envFile = `${dir}/fakes.env`;
  // A launcher shell that starts the fakes and waits on them, as `deno task` does.
  const launcher = new Deno.Command("sh", {
    args: [
      "-c",
      `"${Deno.execPath()}" run --config "${CONFIG}" --allow-all "${SCRIPT}" ` +
      `--write-env "${envFile}" & echo $! > "${dir}/pid"; wait`,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    // The first read that finds the file finds the whole environment.
    const text = await waitFor(() => Deno.readTextFile(envFile).catch(() => null), 60_000);
    assert.ok(text.endsWith("\n"), "whole lines");
    const env = Object.fromEntries(
      text.trim().split("\n").map((line) => line.split(/=(.*)/s).slice(0, 2)),
    );
    for (
      const name of [
        "VERIFY_DNS_SERVER",
        "VERIFY_SMTP_PORT",
        "WIKIDATA_API_URL",
        "BRAVE_SEARCH_URL",
        "BRAVE_SEARCH_KEY",
        "GRAVATAR_API_URL",
        "GITHUB_API_URL",
      ]
    ) assert.ok(env[name], `${name} in ${text}`);
    assert.equal(env.NETWORK_SEARCH_PROVIDER, undefined, "the key alone chooses the provider");
    // Every fake it names listens now.
    for (
      const name of ["WIKIDATA_API_URL", "BRAVE_SEARCH_URL", "GRAVATAR_API_URL", "GITHUB_API_URL"]
    ) {
      const url = new URL(env[name]);
      assert.equal(url.hostname, "127.0.0.1");
      const response = await fetch(url);
      await response.body?.cancel();
      assert.ok(response.status > 0, name);
    }
    const smtp = await Deno.connect({ hostname: "127.0.0.1", port: Number(env.VERIFY_SMTP_PORT) });
    smtp.close();

    // The launcher dies without a word to its child: the fakes notice and stop.
    const pid = Number((await Deno.readTextFile(`${dir}/pid`)).trim());
    assert.ok(alive(pid));
    launcher.kill("SIGKILL");
    await launcher.status;
    await waitFor(() => Promise.resolve(alive(pid) ? null : true), 10_000);
    assert.equal(await Deno.stat(envFile).then(() => true, () => false), false, "file removed");
  } finally {
    try {
      launcher.kill("SIGKILL");
    } catch { /* already gone */ }
    await launcher.status;
    await Deno.remove(dir, { recursive: true });
  }
});
