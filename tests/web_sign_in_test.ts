/**
 * The web app's members and sessions: sign-in with a one-time password, choosing one's own,
 * the session cookie's attributes, CSRF on every form, sign-in rate limits, sign-out, and a
 * session never standing in for an API key (spec §5.4).
 */
import assert from "node:assert/strict";
import { resetMemberPassword } from "../domain/members/reset_member_password.ts";
import { createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";
import { MEMBER_PASSWORD, signedInMember, WebClient } from "./web_client.ts";

Deno.test("web app: / and /app send a stranger to sign in", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const root = await env.app.request("/", { redirect: "manual" });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get("location"), "/app");
    const client = new WebClient(env.app);
    const page = await client.get("/app?from=test");
    assert.equal(page.status, 303);
    assert.equal(page.location, "/app/sign-in?next=%2Fapp%3Ffrom%3Dtest");
    const signIn = await client.get("/app/sign-in");
    assert.equal(signIn.status, 200);
    assert.match(signIn.text, /<form method="post" action="\/app\/sign-in"/);
    assert.match(signIn.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    // An inline icon (which the policy allows), so the browser asks for no /favicon.ico.
    assert.match(signIn.text, /<link rel="icon" href="data:image\/svg\+xml,%3Csvg%20/);
    assert.match(signIn.headers.get("content-security-policy") ?? "", /img-src 'self' data:/);
  } finally {
    await env.close();
  }
});

Deno.test(
  "web app: one-time password → choose a password → overview; cookie HttpOnly, SameSite=Lax",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env, 750);
      const client = await signedInMember(env, ws.workspaceId, "Ann@Example.com");
      const overview = await client.get("/app");
      assert.equal(overview.status, 200);
      assert.match(overview.text, /750/);
      assert.match(overview.text, /ann@example\.com/);

      // The cookie as set over plain HTTP, then behind HTTPS.
      const again = new WebClient(env.app);
      await again.get("/app/sign-in");
      const plain = await again.post("/app/sign-in", {
        email: "ann@example.com",
        password: MEMBER_PASSWORD,
        next: "/app/prices",
      });
      assert.equal(plain.status, 303);
      assert.equal(plain.location, "/app/prices");
      const cookie = plain.headers.getSetCookie().find((c) => c.startsWith("svc_session="))!;
      assert.match(cookie, /HttpOnly/);
      assert.match(cookie, /SameSite=Lax/);
      assert.match(cookie, /Path=\/app/);
      assert.doesNotMatch(cookie, /Secure/);
      await again.get("/app/sign-in");
      const https = await again.request("/app/sign-in", {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "X-Forwarded-Proto": "https",
        },
        body: new URLSearchParams({
          _csrf: again.csrf,
          email: "ann@example.com",
          password: MEMBER_PASSWORD,
        }),
      });
      assert.equal(https.status, 303);
      assert.match(
        https.headers.getSetCookie().find((c) => c.startsWith("svc_session="))!,
        /Secure/,
      );

      // An open redirect is not followed: `next` stays inside the app.
      await again.get("/app/sign-in");
      const outside = await again.post("/app/sign-in", {
        email: "ann@example.com",
        password: MEMBER_PASSWORD,
        next: "//evil.example/",
      });
      assert.equal(outside.location, "/app");
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "web app: `next` is resolved, and kept only on this origin at /app or below",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env);
      await signedInMember(env, ws.workspaceId, "dot@example.com");
      const client = new WebClient(env.app);
      // Dot segments (raw, percent-encoded, with backslashes) do not climb out of /app, nor
      // does another origin pass; a path inside /app is kept as resolved.
      for (
        const [next, landing] of [
          ["/app/../..//evil.example/x", "/app"],
          ["/app/..//evil.example/x", "/app"],
          ["/app/%2e%2e/%2e%2e//evil.example/x", "/app"],
          ["/app\\..\\..\\/evil.example/x", "/app"],
          ["/application", "/app"],
          ["https://evil.example/app/x", "/app"],
          ["/app/tools/../prices?x=1", "/app/prices?x=1"],
          ["/app", "/app"],
        ]
      ) {
        const page = await client.get(`/app/sign-in?next=${encodeURIComponent(next)}`);
        const field = /name="next" value="([^"]*)"/.exec(page.text)?.[1];
        assert.equal(field, landing, next);
        const signedIn = await client.post("/app/sign-in", {
          email: "dot@example.com",
          password: MEMBER_PASSWORD,
          next,
        });
        assert.equal(signedIn.status, 303, next);
        assert.equal(signedIn.location, landing, next);
      }
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "web app: wrong passwords, bad forms and a form without its CSRF token",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env);
      const member = await signedInMember(env, ws.workspaceId, "bo@example.com");
      const stranger = new WebClient(env.app);
      await stranger.get("/app/sign-in");
      const wrong = await stranger.post("/app/sign-in", {
        email: "bo@example.com",
        password: "nope",
      });
      assert.equal(wrong.status, 401);
      assert.match(wrong.text, /Wrong email or password/);
      const unknown = await stranger.post("/app/sign-in", {
        email: "nobody@example.com",
        password: MEMBER_PASSWORD,
      });
      assert.equal(unknown.status, 401);
      assert.match(unknown.text, /Wrong email or password/);
      // an address the database cannot hold (a NUL) is just as unknown, not a 500
      const control = await stranger.post("/app/sign-in", {
        email: "bo\u0000@example.com",
        password: MEMBER_PASSWORD,
      });
      assert.equal(control.status, 401);
      assert.match(control.text, /Wrong email or password/);
      // The sign-in form's own token (double submit) is required too.
      const noToken = await stranger.post("/app/sign-in", {
        _csrf: "",
        email: "bo@example.com",
        password: MEMBER_PASSWORD,
      });
      assert.equal(noToken.status, 403);

      // A signed-in form without the session's token is refused, and does nothing.
      const forged = await member.post("/app/sign-out", { _csrf: "0".repeat(64) });
      assert.equal(forged.status, 403);
      assert.match(forged.text, /expired/);
      assert.equal((await member.get("/app")).status, 200, "still signed in");
      const missing = await member.request("/app/sign-out", { method: "POST" });
      assert.equal(missing.status, 403);

      // Passwords too short or not repeated alike are refused with the reason.
      const reset = await resetMemberPassword(env, { email: "bo@example.com" });
      assert.equal(reset.sessionsEnded, 1);
      assert.equal((await member.get("/app")).status, 303, "a reset ends the member's sessions");
      const fresh = new WebClient(env.app);
      await fresh.get("/app/sign-in");
      await fresh.post("/app/sign-in", {
        email: "bo@example.com",
        password: reset.oneTimePassword,
      });
      assert.equal((await fresh.get("/app")).location, "/app/password");
      const choose = await fresh.get("/app/password");
      assert.match(choose.text, /You signed in with a one-time password/);
      assert.doesNotMatch(choose.text, /currentPassword/, "no current password asked");
      const short = await fresh.post("/app/password", { password: "short", confirmation: "short" });
      assert.equal(short.status, 400);
      assert.match(short.text, /at least 12 characters/);
      const differ = await fresh.post("/app/password", {
        password: MEMBER_PASSWORD,
        confirmation: MEMBER_PASSWORD + "!",
      });
      assert.equal(differ.status, 400);
      assert.match(differ.text, /not the same/);
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "web app: changing a chosen password needs the current one; the one-time flow does not",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env);
      const member = await signedInMember(env, ws.workspaceId, "dee@example.com");
      const other = new WebClient(env.app);
      await other.get("/app/sign-in");
      await other.post("/app/sign-in", { email: "dee@example.com", password: MEMBER_PASSWORD });
      assert.equal((await other.get("/app")).status, 200, "a second session");
      const hashOf = async () =>
        (await env.db.sql<{ password_hash: string }[]>`
          SELECT password_hash FROM members WHERE email = 'dee@example.com'`)[0].password_hash;
      const before = await hashOf();
      const newPassword = "another long private passphrase";

      // The page asks for the current password, and no longer speaks of a one-time one.
      const page = await member.get("/app/password");
      assert.equal(page.status, 200);
      assert.match(page.text, /<title>Change your password/);
      assert.match(page.text, /name="currentPassword"[^>]*autocomplete="current-password"/);
      assert.doesNotMatch(page.text, /one-time password/);

      // Without it, or with a wrong one: refused, nothing changed, no session ended.
      for (const currentPassword of [undefined, "", "not my password at all"]) {
        const fields: Record<string, string> = { password: newPassword, confirmation: newPassword };
        if (currentPassword !== undefined) fields.currentPassword = currentPassword;
        const refused = await member.post("/app/password", fields);
        assert.equal(refused.status, 400, String(currentPassword));
        assert.match(refused.text, /Your current password is not right\./);
        // no password typed is ever written back into the page
        assert.ok(!refused.text.includes(newPassword));
        assert.doesNotMatch(refused.text, /not my password at all/);
      }
      assert.equal(await hashOf(), before, "the password is unchanged");
      assert.equal((await other.get("/app")).status, 200, "the other session lives on");

      // The right current password changes it; the other sessions end, this one stays.
      const changed = await member.post("/app/password", {
        currentPassword: MEMBER_PASSWORD,
        password: newPassword,
        confirmation: newPassword,
      });
      assert.equal(changed.status, 303, changed.text);
      assert.equal(changed.location, "/app");
      assert.notEqual(await hashOf(), before);
      assert.equal((await member.get("/app")).status, 200);
      assert.equal((await other.get("/app")).status, 303, "the other session is signed out");
      const fresh = new WebClient(env.app);
      await fresh.get("/app/sign-in");
      const signIn = await fresh.post("/app/sign-in", {
        email: "dee@example.com",
        password: newPassword,
      });
      assert.equal(signIn.location, "/app", "signed in with the new password");
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "web app: guessing the current password counts against the sign-in limit",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env);
      const member = await signedInMember(env, ws.workspaceId, "eve@example.com");
      await member.get("/app/password");
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const attempt = await member.post("/app/password", {
          currentPassword: "guess " + i,
          password: "a brand new passphrase",
          confirmation: "a brand new passphrase",
        });
        statuses.push(attempt.status);
        if (attempt.status === 429) {
          assert.match(attempt.text, /Too many attempts/);
          assert.ok(Number(attempt.headers.get("retry-after")) > 0);
        }
      }
      // The sign-in was the first of the address's ten attempts.
      assert.deepEqual(statuses, [...Array(9).fill(400), 429]);
      // Even the right password waits for the window, and nothing changed.
      const right = await member.post("/app/password", {
        currentPassword: MEMBER_PASSWORD,
        password: "a brand new passphrase",
        confirmation: "a brand new passphrase",
      });
      assert.equal(right.status, 429);
      env.clock.advance(301_000);
      const later = await member.post("/app/password", {
        currentPassword: MEMBER_PASSWORD,
        password: "a brand new passphrase",
        confirmation: "a brand new passphrase",
      });
      assert.equal(later.status, 303, later.text);
    } finally {
      await env.close();
    }
  },
);

Deno.test("web app: sign-in attempts are rate limited per address", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env);
    await signedInMember(env, ws.workspaceId, "cy@example.com");
    const client = new WebClient(env.app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      await client.get("/app/sign-in");
      const attempt = await client.post("/app/sign-in", {
        email: "cy@example.com",
        password: "guess " + i,
      });
      statuses.push(attempt.status);
      if (attempt.status === 429) {
        assert.match(attempt.text, /Too many sign-in attempts/);
        assert.ok(Number(attempt.headers.get("retry-after")) > 0);
      }
    }
    // The member's own sign-in was the first of the ten attempts their address has.
    assert.deepEqual(statuses, [...Array(9).fill(401), 429, 429]);
    // Even the right password waits for the window.
    await client.get("/app/sign-in");
    const right = await client.post("/app/sign-in", {
      email: "cy@example.com",
      password: MEMBER_PASSWORD,
    });
    assert.equal(right.status, 429);
  } finally {
    await env.close();
  }
});

Deno.test("web app: a session is no API key, and sign-out ends it", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env);
    const client = await signedInMember(env, ws.workspaceId);
    const points = await client.get("/api/v1/points");
    assert.equal(points.status, 401);
    assert.equal(JSON.parse(points.text).error.code, "unauthenticated");
    await client.get("/app");
    const out = await client.post("/app/sign-out", {});
    assert.equal(out.status, 303);
    assert.equal(out.location, "/app/sign-in");
    assert.equal((await client.get("/app")).status, 303);
    const [{ n }] = await env.db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM sessions`;
    assert.equal(n, 0);
  } finally {
    await env.close();
  }
});
