/**
 * Settings → API keys (`/app/settings/api-keys`): a key created in the app is shown once and
 * works with the API; the list (name, prefix, dates, status) never shows a key again; revoking
 * asks first (a dialog, or a page without script), is scoped to the member's workspace, and the
 * revoked key gets 401; expiry in the past is refused; `last_used_at` is written on use, at most
 * once a minute per key; every form needs its CSRF token.
 */
import assert from "node:assert/strict";
import { createApiKey } from "../domain/auth/create_api_key.ts";
import {
  bearer,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  type TestEnv,
  withoutRequestId,
} from "./harness.ts";
import { signedInMember, type WebClient } from "./web_client.ts";

const KEYS = "/app/settings/api-keys";

/** The key on a creation answer page (its read-only input beside the copy button). */
function shownKey(html: string): string | null {
  const input = /<input[^>]*id="new-api-key"[^>]*>/.exec(html)?.[0];
  assert.equal(/svc_sk_[0-9a-f]{48}/.test(html), input !== undefined, "a key only in the input");
  return input ? /value="(svc_sk_[0-9a-f]{48})"/.exec(input)?.[1] ?? null : null;
}

/** The list's row of a key (by id), as HTML. */
function rowOf(html: string, keyId: string): string {
  const match = new RegExp(`<tr data-key-id="${keyId}"[^>]*>(.*?)</tr>`, "s").exec(html);
  assert.ok(match, `a row for ${keyId}`);
  return match[1];
}

async function keyIdOf(env: TestEnv, name: string): Promise<string> {
  const [row] = await env.db.sql<{ id: string }[]>`SELECT id FROM api_keys WHERE name = ${name}`;
  return row.id;
}

async function points(env: TestEnv, apiKey: string): Promise<Response> {
  return await env.app.request("/api/v1/points", { headers: bearer(apiKey) });
}

async function create(member: WebClient, name: string, expiresOn = "") {
  await member.get(KEYS);
  return await member.post(KEYS, { name, expiresOn });
}

Deno.test(
  "api keys: empty state, then a key shown once that works with the API",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env, 321);
      await env.db.sql`DELETE FROM api_keys WHERE workspace_id = ${ws.workspaceId}`;
      const member = await signedInMember(env, ws.workspaceId);

      const empty = await member.get(KEYS);
      assert.equal(empty.status, 200);
      assert.match(empty.text, /This workspace has no API keys yet/);

      const created = await member.post(KEYS, { name: "  CRM sync  ", expiresOn: "" });
      assert.equal(created.status, 200, created.text);
      assert.equal(created.location, null, "no redirect carries the key");
      assert.equal(created.headers.get("cache-control"), "no-store");
      const key = shownKey(created.text);
      assert.ok(key, "the key is on the answer page");
      assert.match(created.text, /class="secret"/);
      assert.match(created.text, /data-copy-target="new-api-key"/);
      assert.match(created.text, /will not be shown again/);
      assert.match(created.text, /Your new key: CRM sync/);

      // The key works with the API, for this workspace.
      const answer = await points(env, key);
      assert.equal(answer.status, 200);
      assert.equal((await answer.json()).data.available, 321);

      // The list shows it by name and prefix, never the key again.
      const list = await member.get(KEYS);
      assert.equal(list.text.includes(key), false, "the key is not shown a second time");
      assert.equal(shownKey(list.text), null);
      const keyId = await keyIdOf(env, "CRM sync");
      const row = rowOf(list.text, keyId);
      assert.match(row, /CRM sync/);
      assert.match(row, new RegExp(key.slice(0, 11) + "…"));
      assert.match(row, /data-status="active"/);
      assert.match(row, /data-label="Expires"><span class="muted">Never</);
      assert.doesNotMatch(list.text, /This workspace has no API keys yet/);
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "api keys: the same create form posted twice makes one key, shown once",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env);
      const member = await signedInMember(env, ws.workspaceId);
      const count = async () =>
        (await env.db.sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM api_keys WHERE workspace_id = ${ws.workspaceId}`)[0].n;
      const before = await count();

      // The form carries a one-time key, as the tools' forms do.
      const page = await member.get(KEYS);
      const formKey = /name="idempotencyKey" value="([^"]+)"/.exec(page.text)?.[1];
      assert.ok(formKey, "the create form carries a one-time key");
      const fields = { idempotencyKey: formKey, name: "Reloaded", expiresOn: "" };
      const first = await member.post(KEYS, fields);
      assert.equal(first.status, 200, first.text);
      const key = shownKey(first.text);
      assert.ok(key);
      assert.equal(await count(), before + 1);
      // The answer's form is a new one: another key is one more submit away.
      const nextKey = /name="idempotencyKey" value="([^"]+)"/.exec(first.text)?.[1];
      assert.ok(nextKey && nextKey !== formKey, "a fresh key for the next form");

      // A reload of the answer posts the same form again: no second key, and no key shown.
      const again = await member.post(KEYS, fields);
      assert.equal(again.status, 200, again.text);
      assert.equal(shownKey(again.text), null, "the key is not shown a second time");
      assert.equal(again.text.includes(key), false);
      assert.match(again.text, /This form was already sent/);
      const keyId = await keyIdOf(env, "Reloaded");
      assert.match(again.text, new RegExp(`<tr data-key-id="${keyId}" class="keys-fresh"`));
      assert.equal(await count(), before + 1, "one key");

      // Even with the name changed, the used form makes nothing.
      const edited = await member.post(KEYS, { ...fields, name: "Edited" });
      assert.equal(shownKey(edited.text), null);
      assert.equal(await count(), before + 1);

      // A refused form keeps its key: corrected, it creates the key once.
      const refused = await member.post(KEYS, {
        idempotencyKey: nextKey,
        name: " ",
        expiresOn: "",
      });
      assert.equal(refused.status, 400);
      assert.match(refused.text, new RegExp(`name="idempotencyKey" value="${nextKey}"`));
      const fixed = await member.post(KEYS, {
        idempotencyKey: nextKey,
        name: "Fixed",
        expiresOn: "",
      });
      assert.ok(shownKey(fixed.text));
      assert.equal(await count(), before + 2);
    } finally {
      await env.close();
    }
  },
);

Deno.test("api keys: names and expiry dates are checked by the verb", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env);
    const member = await signedInMember(env, ws.workspaceId);
    const today = new Date(env.clock.now()).toISOString().slice(0, 10);

    const blank = await create(member, "   ");
    assert.equal(blank.status, 400);
    assert.match(blank.text, /Name must not be blank\./);
    assert.equal(shownKey(blank.text), null);

    const long = await create(member, "x".repeat(101));
    assert.equal(long.status, 400);
    assert.match(long.text, /Name must be at most 100 characters/);

    // a NUL cannot be stored: a clear refusal, not a 500
    const control = await create(member, "CI\u0000 key");
    assert.equal(control.status, 400);
    assert.match(control.text, /Name must not contain control characters/);

    for (const past of ["2020-01-31", today]) {
      const refused = await create(member, "Old key", past);
      assert.equal(refused.status, 400, past);
      assert.match(refused.text, /Expiry date must be in the future\./);
      // The form is kept as it was filled.
      assert.match(refused.text, /name="name" required maxlength="100" value="Old key"/);
      assert.match(refused.text, new RegExp(`name="expiresOn" min="[0-9-]+" value="${past}"`));
      assert.equal(shownKey(refused.text), null);
    }
    const garbled = await create(member, "Garbled", "next tuesday");
    assert.equal(garbled.status, 400);
    assert.match(garbled.text, /Expiry date must be a date\./);
    // A day the calendar does not have is no date, not the next month's (nor "in the past").
    for (
      const impossible of ["2027-02-30", "2026-02-30", "2027-02-29", "2027-04-31", "2027-13-01"]
    ) {
      const refused = await create(member, "Impossible", impossible);
      assert.equal(refused.status, 400, impossible);
      assert.match(refused.text, /Expiry date must be a date\./, impossible);
      assert.match(
        refused.text,
        new RegExp(`name="expiresOn" min="[0-9-]+" value="${impossible}"`),
      );
    }
    const [{ n }] = await env.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM api_keys WHERE workspace_id = ${ws.workspaceId}`;
    assert.equal(n, 1, "only the workspace's first key");

    // Tomorrow is the earliest: the key stops working as that day begins (UTC).
    const tomorrow = new Date(env.clock.now() + 86_400_000).toISOString().slice(0, 10);
    const dated = await create(member, "Until tomorrow", tomorrow);
    assert.equal(dated.status, 200);
    const key = shownKey(dated.text)!;
    assert.match(dated.text, new RegExp(`Expires <time datetime="${tomorrow}T00:00:00.000Z"`));
    assert.equal((await points(env, key)).status, 200);
    const list = await member.get(KEYS);
    assert.match(rowOf(list.text, await keyIdOf(env, "Until tomorrow")), new RegExp(tomorrow));

    // Past its expiry the key is refused and listed as expired.
    env.clock.advance(2 * 86_400_000);
    const expired = await points(env, key);
    assert.equal(expired.status, 401);
    assert.equal((await expired.json()).error.message, "This API key has expired");
    const later = await member.get(KEYS);
    assert.match(rowOf(later.text, await keyIdOf(env, "Until tomorrow")), /data-status="expired"/);
  } finally {
    await env.close();
  }
});

Deno.test("api keys: revoke asks first, then the key gets 401", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env);
    const member = await signedInMember(env, ws.workspaceId);
    const key = shownKey((await create(member, "Zapier")).text)!;
    const keyId = await keyIdOf(env, "Zapier");
    const revokePath = `${KEYS}/${keyId}/revoke`;

    // The list's form asks in a dialog; without script it says so and gets a page instead.
    const list = await member.get(KEYS);
    const form = new RegExp(
      `<form method="post" action="${revokePath}" data-confirm="Revoke “Zapier”\\?[^"]*">.*?<noscript><input type="hidden" name="noscript" value="1"></noscript>`,
      "s",
    );
    assert.match(list.text, form);
    const noScript = await member.post(revokePath, { noscript: "1" });
    assert.equal(noScript.status, 303);
    assert.equal(noScript.location, revokePath);
    assert.equal((await points(env, key)).status, 200, "not revoked yet");
    const confirm = await member.get(revokePath);
    assert.equal(confirm.status, 200);
    assert.match(confirm.text, /Zapier/);
    assert.match(confirm.text, /Revoke this key/);
    assert.match(confirm.text, new RegExp(`<form method="post" action="${revokePath}"`));

    const revoked = await member.post(revokePath, {});
    assert.equal(revoked.status, 303);
    assert.equal(revoked.location, `${KEYS}?revoked=${keyId}`);
    const after = await member.get(revoked.location!);
    assert.match(after.text, /Revoked <strong>Zapier<\/strong>/);
    assert.match(rowOf(after.text, keyId), /data-status="revoked"/);
    assert.doesNotMatch(rowOf(after.text, keyId), /data-confirm/, "nothing left to revoke");

    const refused = await points(env, key);
    assert.equal(refused.status, 401);
    assert.deepEqual(withoutRequestId(await refused.json()), {
      error: { code: "unauthenticated", message: "Invalid API key" },
    });
    // Revoking again changes nothing; the confirmation page says it is done.
    assert.equal((await member.post(revokePath, {})).status, 303);
    assert.match((await member.get(revokePath)).text, /already revoked/);
  } finally {
    await env.close();
  }
});

Deno.test("api keys: another workspace's key is not found and stays usable", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env);
    const other = await createTestWorkspace(env, 55);
    const member = await signedInMember(env, ws.workspaceId);
    const [{ id: otherKeyId }] = await env.db.sql<{ id: string }[]>`
      SELECT id FROM api_keys WHERE workspace_id = ${other.workspaceId}`;
    const path = `${KEYS}/${otherKeyId}/revoke`;

    const page = await member.get(path);
    assert.equal(page.status, 404);
    assert.match(page.text, /This workspace has no API key with that id/);
    assert.doesNotMatch(page.text, /Revoke this key/);
    await member.get(KEYS);
    const post = await member.post(path, {});
    assert.equal(post.status, 404);
    const unknown = await member.post(`${KEYS}/key_nothing/revoke`, {});
    assert.equal(unknown.status, 404);
    // an id with a NUL, which the database cannot hold, is unknown too (not a 500)
    assert.equal((await member.post(`${KEYS}/key_%00/revoke`, {})).status, 404);

    const [{ revoked_at }] = await env.db.sql<{ revoked_at: Date | null }[]>`
      SELECT revoked_at FROM api_keys WHERE id = ${otherKeyId}`;
    assert.equal(revoked_at, null);
    const answer = await points(env, other.apiKey);
    assert.equal(answer.status, 200);
    assert.equal((await answer.json()).data.available, 55);
    // And the list shows this workspace's keys only.
    assert.doesNotMatch((await member.get(KEYS)).text, new RegExp(otherKeyId));
  } finally {
    await env.close();
  }
});

Deno.test("api keys: every form needs its CSRF token", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env);
    const member = await signedInMember(env, ws.workspaceId);
    await member.get(KEYS);
    const create = await member.post(KEYS, { _csrf: "", name: "Sneaky", expiresOn: "" });
    assert.equal(create.status, 403);
    assert.equal(shownKey(create.text), null);
    const [{ id: keyId }] = await env.db.sql<{ id: string }[]>`
      SELECT id FROM api_keys WHERE workspace_id = ${ws.workspaceId}`;
    const revoke = await member.post(`${KEYS}/${keyId}/revoke`, { _csrf: "" });
    assert.equal(revoke.status, 403);
    const [{ n }] = await env.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM api_keys
       WHERE workspace_id = ${ws.workspaceId} AND revoked_at IS NULL`;
    assert.equal(n, 1, "nothing created, nothing revoked");
    assert.equal((await points(env, ws.apiKey)).status, 200);
  } finally {
    await env.close();
  }
});

/** The key's `last_used_at`, waiting a little for the write the request did not wait for. */
async function lastUsed(env: TestEnv, keyId: string, wanted: (at: Date | null) => boolean) {
  let at: Date | null = null;
  for (let attempt = 0; attempt < 50; attempt++) {
    [{ last_used_at: at }] = await env.db.sql<{ last_used_at: Date | null }[]>`
      SELECT last_used_at FROM api_keys WHERE id = ${keyId}`;
    if (wanted(at)) return at;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return at;
}

Deno.test(
  "api keys: last used appears after a use, written at most once a minute",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env);
      const member = await signedInMember(env, ws.workspaceId);
      const key = shownKey((await create(member, "Reporting")).text)!;
      const keyId = await keyIdOf(env, "Reporting");
      assert.match(
        rowOf((await member.get(KEYS)).text, keyId),
        /data-label="Last used"><span class="muted">Never</,
      );

      assert.equal((await points(env, key)).status, 200);
      const first = await lastUsed(env, keyId, (at) => at !== null);
      assert.ok(first, "written after a use");
      const row = rowOf((await member.get(KEYS)).text, keyId);
      assert.match(
        row,
        new RegExp(`data-label="Last used"><time datetime="${first.toISOString()}"`),
      );

      // Within the minute: neither this process nor the statement writes again.
      await env.db.sql`UPDATE api_keys SET last_used_at = now() - interval '2 minutes'
                      WHERE id = ${keyId}`;
      const [{ last_used_at: backdated }] = await env.db.sql<{ last_used_at: Date }[]>`
      SELECT last_used_at FROM api_keys WHERE id = ${keyId}`;
      assert.equal((await points(env, key)).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(
        await lastUsed(env, keyId, () => true),
        backdated,
        "this process wrote it less than a minute ago",
      );

      // A minute later (by the process's clock) the next use writes it again.
      env.clock.advance(61_000);
      assert.equal((await points(env, key)).status, 200);
      const again = await lastUsed(env, keyId, (at) => at!.getTime() > backdated.getTime());
      assert.ok(again!.getTime() > backdated.getTime());

      // Another instance wrote it within the minute: the statement itself skips the row.
      env.clock.advance(61_000);
      await env.db.sql`UPDATE api_keys SET last_used_at = now() - interval '10 seconds'
                      WHERE id = ${keyId}`;
      const [{ last_used_at: recent }] = await env.db.sql<{ last_used_at: Date }[]>`
      SELECT last_used_at FROM api_keys WHERE id = ${keyId}`;
      assert.equal((await points(env, key)).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(await lastUsed(env, keyId, () => true), recent);
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "api keys: names are kept by the verb; the CLI's keys stay unnamed",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env);
      const unnamed = await createApiKey(env, { workspaceId: ws.workspaceId });
      assert.equal(unnamed.name, null);
      const named = await createApiKey(env, {
        workspaceId: ws.workspaceId,
        name: " ✓ sync ",
      });
      assert.equal(named.name, "✓ sync");
      const member = await signedInMember(env, ws.workspaceId);
      const page = await member.get(KEYS);
      assert.match(rowOf(page.text, unnamed.keyId), /Unnamed/);
      assert.match(rowOf(page.text, named.keyId), /✓ sync/);
    } finally {
      await env.close();
    }
  },
);
