/**
 * The audit log (migration 024, domain/audit/): each administrative act is recorded with its
 * actor — the operator CLI, a member in the app, an API key, the service — by ids and counts,
 * never a key, a secret or a listed address; `GET /api/v1/audit-log` pages a workspace's own
 * entries; Settings → Audit log lists them; and the database refuses UPDATE, DELETE and TRUNCATE
 * on the table. Runs on embedded PGlite, or on the Postgres named by TEST_DATABASE_URL.
 */
import assert from "node:assert/strict";
import { createWorkspace } from "../domain/workspaces/create_workspace.ts";
import { createApiKey } from "../domain/auth/create_api_key.ts";
import { grantPoints } from "../domain/billing/grant_points.ts";
import { createMember } from "../domain/members/create_member.ts";
import { removeMember } from "../domain/members/remove_member.ts";
import { erasePerson } from "../domain/privacy/erase_person.ts";
import { type AuditEntry } from "../domain/audit/audit_event.ts";
import { listAuditLog } from "../domain/audit/list_audit_log.ts";
import { bearer, createTestEnv, DB_TEST, type TestEnv } from "./harness.ts";
import { signedInMember } from "./web_client.ts";

const CLI = { kind: "cli" } as const;

async function apiPages(env: TestEnv, apiKey: string): Promise<AuditEntry[]> {
  const all: AuditEntry[] = [];
  let cursor: number | null = null;
  do {
    const query: string = cursor === null ? "limit=2" : `limit=2&cursor=${cursor}`;
    const res = await env.app.request(`/api/v1/audit-log?${query}`, { headers: bearer(apiKey) });
    assert.equal(res.status, 200);
    const { data } = await res.json();
    assert.ok(data.entries.length <= 2);
    all.push(...data.entries);
    cursor = data.nextCursor;
  } while (cursor !== null);
  return all;
}

Deno.test(
  "audit log: every act with its actor; the API, the app page, the CLI's view",
  DB_TEST,
  async () => {
    const env = await createTestEnv({ webhooks: { allowPrivateAddresses: true, timeoutMs: 300 } });
    try {
      const ws = await createWorkspace(env, { name: "audited", points: 100, actor: CLI });
      const other = await createWorkspace(env, { name: "other", actor: CLI });
      const key = await createApiKey(env, { workspaceId: ws.workspaceId, name: "CRM", actor: CLI });
      await grantPoints(env, { workspaceId: ws.workspaceId, points: 500, actor: CLI });
      const added = await createMember(env, {
        workspaceId: ws.workspaceId,
        email: "owner@example.com",
        actor: CLI,
      });
      // A member in the app: revokes a key, adds and removes a do-not-contact entry.
      const client = await signedInMember(env, ws.workspaceId, "member@example.com");
      await client.get("/app/do-not-contact");
      assert.equal(
        (await client.post("/app/do-not-contact", { entry: "x@listed.test" })).status,
        200,
      );
      await client.post("/app/do-not-contact/remove", { kind: "email", value: "x@listed.test" });
      await client.get(`/app/settings/api-keys/${key.keyId}/revoke`);
      const revoked = await client.post(`/app/settings/api-keys/${key.keyId}/revoke`, {});
      assert.ok([200, 303].includes(revoked.status), revoked.text);
      // An API key: registers and deletes a webhook endpoint.
      const made = await env.app.request("/api/v1/webhooks", {
        method: "POST",
        headers: bearer(ws.apiKey, { "Content-Type": "application/json" }),
        body: JSON.stringify({ url: "http://127.0.0.1:9/hooks", events: ["bulk.job.completed"] }),
      });
      assert.equal(made.status, 200, await made.clone().text());
      const endpoint = (await made.json()).data;
      const gone = await env.app.request(`/api/v1/webhooks/${endpoint.id}`, {
        method: "DELETE",
        headers: bearer(ws.apiKey),
      });
      assert.equal(gone.status, 200);
      // The operator takes the first member out again: the member and their sessions are gone.
      await removeMember(env, { email: "Owner@Example.com", actor: CLI });
      const [left] = await env.db
        .sql`SELECT count(*)::int AS n FROM members WHERE id = ${added.memberId}`;
      assert.equal(left.n, 0);
      await assert.rejects(
        removeMember(env, { email: "owner@example.com", actor: CLI }),
        /No member/,
      );
      // An erasure is service-wide: listed for the operator, never in a workspace's log.
      await erasePerson(env.ctx, { email: "nobody@example.com", actor: CLI });

      const entries = await apiPages(env, ws.apiKey);
      const acts = entries.map((e) => [e.action, e.actor.kind, e.actor.id ?? null]).reverse();
      const memberId = acts.find((a) => a[1] === "member")?.[2];
      const { keyId } = (await env.db.sql<{ keyId: string }[]>`
      SELECT id AS "keyId" FROM api_keys
       WHERE workspace_id = ${ws.workspaceId} AND id <> ${key.keyId}`)[0];
      assert.deepEqual(acts, [
        ["api-key.created", "cli", null],
        ["points.granted", "cli", null],
        ["api-key.created", "cli", null],
        ["points.granted", "cli", null],
        ["member.added", "cli", null],
        ["member.added", "service", null],
        ["do-not-contact.added", "member", memberId],
        ["do-not-contact.removed", "member", memberId],
        ["api-key.revoked", "member", memberId],
        ["webhook-endpoint.created", "api-key", keyId],
        ["webhook-endpoint.deleted", "api-key", keyId],
        ["member.removed", "cli", null],
      ]);
      assert.ok(memberId?.startsWith("mem_"));
      const byAction = Object.fromEntries(entries.map((e) => [e.action, e]));
      assert.equal(byAction["api-key.revoked"].subjectId, key.keyId);
      assert.equal(byAction["member.added"].workspaceId, ws.workspaceId);
      assert.deepEqual(byAction["do-not-contact.added"].details, { kind: "email" });
      assert.equal(byAction["webhook-endpoint.created"].subjectId, endpoint.id);
      assert.ok(entries.some((e) => e.action === "member.added" && e.subjectId === added.memberId));
      assert.equal(byAction["member.removed"].subjectId, added.memberId);
      assert.ok(entries.every((e) => e.workspaceId === ws.workspaceId));
      // Never a key, a secret, or the listed address.
      const text = JSON.stringify(entries);
      for (const secret of [ws.apiKey, key.apiKey, endpoint.secret, "x@listed.test", "owner@"]) {
        assert.ok(!text.includes(secret), "the log holds no key, secret or address");
      }

      // The other workspace sees only its own acts; the operator sees all, the erasure too.
      const theirs = await apiPages(env, other.apiKey);
      assert.deepEqual(theirs.map((e) => e.action), ["api-key.created"]);
      const all = await listAuditLog(env, { limit: 200 });
      const erasure = all.entries.find((e) => e.action === "privacy.erased")!;
      assert.equal(erasure.workspaceId, null);
      assert.deepEqual(erasure.actor, { kind: "cli", id: null });
      assert.equal(erasure.details.by, "email");

      // Settings → Audit log.
      const page = await client.get("/app/settings/audit-log");
      assert.equal(page.status, 200);
      assert.match(page.text, /href="\/app\/settings\/audit-log"[^>]*aria-current="page"/);
      assert.match(page.text, /Webhook endpoint deleted/);
      assert.match(page.text, /data-action="api-key.revoked" data-actor="member"/);
      assert.ok(!page.text.includes("Person erased"));
      assert.equal((await client.get("/app/settings/audit-log?cursor=x")).status, 400);

      const bad = await env.app.request("/api/v1/audit-log?limit=500", {
        headers: bearer(ws.apiKey),
      });
      assert.equal(bad.status, 400);
      await bad.body?.cancel();
      const anonymous = await env.app.request("/api/v1/audit-log");
      assert.equal(anonymous.status, 401);
      await anonymous.body?.cancel();
    } finally {
      await env.close();
    }
  },
);

Deno.test("audit log: the database refuses UPDATE, DELETE and TRUNCATE", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    await createWorkspace(env, { name: "w", actor: CLI });
    const [{ n: before }] = await env.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM audit_log`;
    assert.equal(before, 1);
    for (
      const statement of [
        "UPDATE audit_log SET actor_kind = 'service'",
        "DELETE FROM audit_log",
        "TRUNCATE audit_log",
      ]
    ) {
      await assert.rejects(() => env.db.sql.unsafe(statement), /append-only/, statement);
    }
    const [{ n: after }] = await env.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM audit_log`;
    assert.equal(after, 1);
  } finally {
    await env.close();
  }
});
