/**
 * Start-up refuses a bad environment before any store opens: one line naming the variable.
 */
import assert from "node:assert/strict";
import { startService } from "../main.ts";
import { silentLogger } from "../domain/shared/logger.ts";

async function startFailure(env: Record<string, string>): Promise<string> {
  const dataDir = await Deno.makeTempDir({ prefix: "startup_config_" });
  try {
    const service = await startService(
      { DATA_DIR: `${dataDir}/data`, LOG_REQUESTS: "false", ...env },
      silentLogger,
      { workers: false },
    ).catch((error: Error) => error);
    if (!(service instanceof Error)) {
      await service.stop();
      throw new Error(`${JSON.stringify(env)} started`);
    }
    // Nothing was opened or created.
    assert.equal(
      await Deno.stat(`${dataDir}/data`).then(() => true, () => false),
      false,
      "DATA_DIR untouched",
    );
    assert.ok(!service.message.includes("\n"), service.message);
    return service.message;
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}

Deno.test("start-up: out-of-range numbers are refused before any store opens", async () => {
  for (
    const [name, value] of [
      ["PORT", "70000"],
      ["RATE_LIMIT_NAME_PARSE", "60/99999999999999999999"],
      ["PRICE_NAME_PARSE", "99999999999999999999"],
      ["VERIFY_SMTP_PORT", "70000"],
      ["LEAD_SEARCH_POLL_MS", "0"],
      ["LOG_REQUESTS", "banana"],
      ["BULK_RESULTS_RETENTION_DAYS", "-1"],
      ["BULK_RESULTS_RETENTION_DAYS", "abc"],
      ["DATABASE_URL", "mysql://u:p@127.0.0.1/x"],
    ]
  ) {
    assert.match(await startFailure({ [name]: value }), new RegExp(`^${name} `));
  }
});

Deno.test("start-up: a port in use and an unknown HOST name the variables", async () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = (taken.addr as Deno.NetAddr).port;
    assert.match(
      await startFailure({ HOST: "127.0.0.1", PORT: String(port) }),
      /HOST=127\.0\.0\.1 PORT=\d+: .*in use/,
    );
  } finally {
    taken.close();
  }
  assert.match(
    await startFailure({ HOST: "no-such-host.invalid", PORT: "9069" }),
    /^cannot listen on HOST=no-such-host\.invalid PORT=9069/,
  );
});
