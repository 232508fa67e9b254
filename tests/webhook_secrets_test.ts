/**
 * Webhook signing secrets sealed at rest: after registering over the API no table holds the
 * secret, and deliveries still verify with it; a row as an older instance wrote it (the secret as
 * is) is still signed, and the start-up step seals it; a sealed value does not open on another
 * endpoint's row, altered, or under another server secret, and the error never holds the secret.
 */
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { deliverDueWebhooks } from "../domain/webhooks/deliver_webhooks.ts";
import { enqueueWebhookEvent } from "../domain/webhooks/enqueue_webhook_event.ts";
import { sealWebhookSecrets } from "../domain/webhooks/seal_webhook_secrets.ts";
import { createSecretSeal, SealedSecretError } from "../domain/webhooks/sealed_secret.ts";
import type { Database } from "../domain/stores/database.ts";
import { memoryLogger } from "../domain/shared/logger.ts";
import {
  bearer,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  startTestService,
  type TestEnv,
} from "./harness.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/** Every row of every table, as JSON text. */
async function dumpDatabase(db: Database): Promise<string> {
  const tables = await db.sql<{ name: string }[]>`
    SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
  assert.ok(tables.some((t) => t.name === "webhook_endpoints"));
  const rows: string[] = [];
  for (const { name } of tables) {
    const found = await db.sql.unsafe<{ row: string }[]>(
      `SELECT row_to_json(t)::text AS row FROM "${name.replaceAll('"', '""')}" t`,
    );
    rows.push(...found.map((r) => r.row));
  }
  return rows.join("\n");
}

/** A receiver on 127.0.0.1 that answers 200 to deliveries verifying under `secret`, else 400. */
function startReceiver(secret: () => string) {
  const verified: string[] = [];
  const refused: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    const headers = Object.fromEntries(req.headers);
    try {
      new Webhook(secret()).verify(body, headers);
      verified.push(headers["webhook-id"]);
      return new Response(null, { status: 200 });
    } catch {
      refused.push(headers["webhook-id"]);
      return new Response(null, { status: 400 });
    }
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/hooks`,
    verified,
    refused,
    close: () => server.shutdown(),
  };
}

type Receiver = ReturnType<typeof startReceiver>;

/**
 * A test env that may deliver to 127.0.0.1, a receiver checking signatures under `secret`, and a
 * workspace with 100 points; both are closed after `run`.
 */
async function withDeliveries(
  secret: () => string,
  run: (env: TestEnv, receiver: Receiver, workspaceId: string, apiKey: string) => Promise<void>,
): Promise<void> {
  const env = await createTestEnv({ webhooks: { allowPrivateAddresses: true, timeoutMs: 2000 } });
  const receiver = startReceiver(secret);
  try {
    const ws = await createTestWorkspace(env, 100);
    await run(env, receiver, ws.workspaceId, ws.apiKey);
  } finally {
    await receiver.close();
    await env.close();
  }
}

async function enqueue(env: TestEnv, workspaceId: string): Promise<void> {
  await env.db.sql.begin((tx) =>
    enqueueWebhookEvent({ tx }, {
      workspaceId,
      type: "bulk.job.completed",
      id: `job_${crypto.randomUUID()}`,
      status: "completed",
      at: new Date(env.clock.now()),
    })
  );
}

async function endpointRow(env: TestEnv, id: string) {
  const [row] = await env.db.sql<{ secret: string | null; secret_sealed: string | null }[]>`
    SELECT secret, secret_sealed FROM webhook_endpoints WHERE id = ${id}`;
  return row;
}

Deno.test("webhook secrets: seal and open; another endpoint, an alteration or key fails", async () => {
  const seal = createSecretSeal("server-secret-one-0123456789abcdef");
  const sealed = await seal.seal("whe_a", SECRET);
  assert.match(sealed, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
  assert.ok(!sealed.includes(SECRET.slice(6)));
  assert.notEqual(await seal.seal("whe_a", SECRET), sealed, "a fresh IV per seal");
  assert.equal(await seal.open("whe_a", sealed), SECRET);

  const [version, iv, body] = sealed.split(".");
  const flipped = body[4] === "A" ? "B" : "A";
  const refusals = [
    ["another endpoint", () => seal.open("whe_b", sealed)],
    [
      "an altered ciphertext",
      () => seal.open("whe_a", `${version}.${iv}.${body.slice(0, 4)}${flipped}${body.slice(5)}`),
    ],
    [
      "another IV",
      () =>
        seal.open("whe_a", `${version}.${iv.startsWith("A") ? "B" : "A"}${iv.slice(1)}.${body}`),
    ],
    ["another version", () => seal.open("whe_a", `v2.${iv}.${body}`)],
    ["the secret as is", () => seal.open("whe_a", SECRET)],
    [
      "another server secret",
      () => createSecretSeal("server-secret-two-0123456789abcdef").open("whe_a", sealed),
    ],
  ] as const;
  for (const [what, open] of refusals) {
    await assert.rejects(open, (error: Error) => {
      assert.ok(error instanceof SealedSecretError, what);
      assert.match(error.message, /does not open/);
      assert.ok(!error.message.includes(SECRET), what);
      assert.ok(!error.message.includes(SECRET.slice(6)), what);
      assert.ok(!error.message.includes(body), what);
      return true;
    }, what);
  }
});

Deno.test(
  "webhook secrets: registered over the API, no table holds it; deliveries verify",
  DB_TEST,
  async () => {
    let secret = "";
    await withDeliveries(() => secret, async (env, receiver, workspaceId, apiKey) => {
      const response = await env.app.request("/api/v1/webhooks", {
        method: "POST",
        headers: bearer(apiKey, { "content-type": "application/json" }),
        body: JSON.stringify({ url: receiver.url, events: ["bulk.job.completed"] }),
      });
      assert.equal(response.status, 200);
      const { data } = await response.json();
      secret = data.secret;
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      const row = await endpointRow(env, data.id);
      assert.equal(row.secret, null);
      assert.match(row.secret_sealed ?? "", /^v1\./);
      const dump = await dumpDatabase(env.db);
      assert.ok(dump.includes(data.id), "the dump holds the endpoint");
      assert.ok(!dump.includes(secret), "no row holds the secret");
      assert.ok(!dump.includes(secret.slice(6)), "nor its base64 part");

      await enqueue(env, workspaceId);
      assert.equal(await deliverDueWebhooks(env.ctx), 1);
      assert.equal(receiver.verified.length, 1);
      assert.deepEqual(receiver.refused, []);
      assert.ok(!env.logLines.join("\n").includes(secret.slice(6)), "no log line holds it");
    });
  },
);

Deno.test(
  "webhook secrets: a row an older instance wrote is signed, then sealed at start",
  DB_TEST,
  async () => {
    await withDeliveries(() => SECRET, async (env, receiver, workspaceId) => {
      const id = `whe_${crypto.randomUUID()}`;
      await env.db.sql`
        INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret, created_at)
        VALUES (${id}, ${workspaceId}, ${receiver.url}, ${["bulk.job.completed"]},
                ${SECRET}, ${new Date(env.clock.now())})`;
      await enqueue(env, workspaceId);
      assert.equal(await deliverDueWebhooks(env.ctx), 1, "signed before it is sealed");
      assert.equal(receiver.verified.length, 1);

      assert.equal(await sealWebhookSecrets(env.ctx), 1);
      assert.equal(await sealWebhookSecrets(env.ctx), 0, "sealed once");
      const row = await endpointRow(env, id);
      assert.equal(row.secret, null);
      assert.equal(await env.ctx.webhookSecrets.open(id, row.secret_sealed!), SECRET);
      assert.ok(!(await dumpDatabase(env.db)).includes(SECRET.slice(6)), "no row holds it");

      await enqueue(env, workspaceId);
      assert.equal(await deliverDueWebhooks(env.ctx), 1, "signed after it is sealed");
      assert.equal(receiver.verified.length, 2);
      assert.deepEqual(receiver.refused, []);
    });
  },
);

Deno.test(
  "webhook secrets: a sealed value copied to another endpoint fails visibly and is retried",
  DB_TEST,
  async () => {
    await withDeliveries(() => SECRET, async (env, receiver, workspaceId) => {
      const at = new Date(env.clock.now());
      const sealed = await env.ctx.webhookSecrets.seal("whe_original", SECRET);
      const id = `whe_${crypto.randomUUID()}`;
      await env.db.sql`
        INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret_sealed, created_at)
        VALUES (${id}, ${workspaceId}, ${receiver.url}, ${["bulk.job.completed"]},
                ${sealed}, ${at})`;
      await enqueue(env, workspaceId);
      assert.equal(await deliverDueWebhooks(env.ctx), 1);
      assert.equal(receiver.verified.length + receiver.refused.length, 0, "nothing sent");
      const [delivery] = await env.db.sql<
        { status: string; attempts: number; last_error: string; next_attempt_at: Date | null }[]
      >`SELECT status, attempts, last_error, next_attempt_at FROM webhook_deliveries
         WHERE endpoint_id = ${id}`;
      assert.equal(delivery.status, "pending");
      assert.equal(delivery.attempts, 1);
      assert.equal(delivery.last_error, "signing secret does not open");
      assert.equal(delivery.next_attempt_at!.getTime(), at.getTime() + 5_000);
      const log = env.logLines.join("\n");
      assert.match(log, /webhook secret does not open/);
      assert.ok(log.includes(id), "logged by endpoint id");
      assert.ok(!log.includes(SECRET.slice(6)), "never the secret");
    });
  },
);

Deno.test(
  "webhook secrets: the service's start seals what an older instance wrote, once",
  DB_TEST,
  async () => {
    const { startService } = await import("../main.ts");
    const first = await startTestService(memoryLogger());
    try {
      const db = first.service.ctx.db;
      const ws = await createTestWorkspace({ db }, 100);
      const id = `whe_${crypto.randomUUID()}`;
      await db.sql`
        INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret, created_at)
        VALUES (${id}, ${ws.workspaceId}, ${"https://hooks.example.com/in"},
                ${["bulk.job.completed"]}, ${SECRET}, ${new Date()})`;
      await first.stop({ keepDataDir: true });
      for (const sealedNow of [1, 0]) {
        const logger = memoryLogger();
        const service = await startService(first.env, logger, { workers: false });
        try {
          const [row] = await service.ctx.db.sql<
            { secret: string | null; secret_sealed: string }[]
          >`SELECT secret, secret_sealed FROM webhook_endpoints WHERE id = ${id}`;
          assert.equal(row.secret, null);
          assert.equal(await service.ctx.webhookSecrets.open(id, row.secret_sealed), SECRET);
          const lines = logger.lines.filter((line) => line.includes("webhook secrets sealed"));
          assert.equal(lines.length, sealedNow);
          assert.ok(!logger.lines.join("\n").includes(SECRET.slice(6)));
        } finally {
          await service.stop();
        }
      }
    } finally {
      await first.cleanup();
    }
  },
);
