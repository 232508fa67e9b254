/**
 * The public opt-out page (routes/app/opt_out.tsx, domain/privacy/): the request mails a sealed,
 * expiring, single-use link; the answer is the same whether or not anything is held; following
 * the link (one press of a button, never the GET) suppresses and erases; the audit log shows each
 * step; requests are rate limited per client; without a submission server the page says how to
 * write to the operator. Mail goes to a recording fake here; tests/real_mail/ sends it through
 * Postfix.
 */
import assert from "node:assert/strict";
import type { MailSender, OutgoingMessage } from "../domain/providers/mail_submission/port.ts";
import { importPeople, parseImportRecord } from "../domain/directory/import_people.ts";
import { isSuppressed } from "../domain/privacy/is_suppressed.ts";
import { listAuditLog } from "../domain/audit/list_audit_log.ts";
import { createTestEnv, createTestWorkspace, DB_TEST, lookupCaller } from "./harness.ts";

function recordingSender(): MailSender & { sent: OutgoingMessage[] } {
  const sent: OutgoingMessage[] = [];
  return { sent, send: (m) => (sent.push(m), Promise.resolve({ kind: "sent" as const })) };
}

function form(fields: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  };
}

/** The page's text without its markup, for comparing what two answers say. */
function words(html: string): string {
  return html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
}

Deno.test(
  "opt-out: a mailed link, the same answer for anyone, suppress and erase on confirm",
  DB_TEST,
  async () => {
    const mail = recordingSender();
    const env = await createTestEnv({
      ports: { mailSender: mail },
      privacy: { publicUrl: "https://svc.example", contact: null, linkHours: 24 },
    });
    try {
      const record = parseImportRecord({
        name: "Grace Hopper",
        companyDomain: "acme.test",
        emails: [{
          address: "grace.hopper@acme.test",
          status: "valid",
          verifiedAt: new Date(env.clock.now()).toISOString(),
        }],
      });
      assert.ok(record.ok);
      await importPeople(env, [record.record]);

      const page = await env.app.request("/privacy/opt-out");
      assert.equal(page.status, 200);
      assert.match(await page.text(), /name="email"/);

      const held = await env.app.request(
        "/privacy/opt-out",
        form({ email: "Grace.Hopper@acme.test" }),
      );
      const unknown = await env.app.request(
        "/privacy/opt-out",
        form({ email: "nobody@else.test" }),
      );
      assert.equal(held.status, 200);
      assert.equal(unknown.status, 200);
      assert.equal(
        words(await held.text()),
        words(await unknown.text()),
        "the same answer for both",
      );
      assert.deepEqual(mail.sent.map((m) => m.to), ["grace.hopper@acme.test", "nobody@else.test"]);
      const link = /https:\/\/svc\.example\/privacy\/opt-out\/confirm\?token=(\S+)/.exec(
        mail.sent[0].text,
      );
      assert.ok(link, mail.sent[0].text);
      assert.ok(!link[0].includes("grace"), "the link does not show the address");
      const token = decodeURIComponent(link[1]);

      // Opening the link changes nothing; pressing its button does.
      const opened = await env.app.request(`/privacy/opt-out/confirm?token=${link[1]}`);
      assert.equal(opened.status, 200);
      assert.ok(!(await isSuppressed(env.ctx, { emails: ["grace.hopper@acme.test"] })));
      const forged = await env.app.request(
        "/privacy/opt-out/confirm",
        form({ token: token.slice(0, -2) + "AA" }),
      );
      assert.equal(forged.status, 400);
      await forged.body?.cancel();
      const done = await env.app.request("/privacy/opt-out/confirm", form({ token }));
      assert.equal(done.status, 200);
      assert.match(await done.text(), /suppression list/);
      assert.ok(await isSuppressed(env.ctx, { emails: ["grace.hopper@acme.test"] }));
      const again = await env.app.request("/privacy/opt-out/confirm", form({ token }));
      assert.equal(again.status, 409, "a link works once");
      await again.body?.cancel();

      const ws = await createTestWorkspace(env, 1000);
      const found = await lookupCaller(env, ws.apiKey, "/api/v1/find")({
        name: "Grace Hopper",
        company: "acme.test",
      });
      assert.equal(found.data.reason, "do-not-contact");
      assert.equal(found.data.charged, false);

      // The second link, a day later: expired.
      env.clock.advance(25 * 3_600_000);
      const late = /token=(\S+)/.exec(mail.sent[1].text)![1];
      const expired = await env.app.request(
        "/privacy/opt-out/confirm",
        form({ token: decodeURIComponent(late) }),
      );
      assert.equal(expired.status, 400);
      await expired.body?.cancel();
      assert.ok(!(await isSuppressed(env.ctx, { emails: ["nobody@else.test"] })));

      const log = (await listAuditLog(env.ctx, {})).entries.reverse()
        .filter((e) => e.action.startsWith("privacy."));
      assert.deepEqual(log.map((e) => [e.action, e.actor.kind]), [
        ["privacy.opt-out-requested", "public-page"],
        ["privacy.opt-out-requested", "public-page"],
        ["privacy.erased", "public-page"],
        ["privacy.opt-out-confirmed", "public-page"],
      ]);
      assert.equal(log[3].subjectId, log[2].subjectId, "the confirmation names its erasure");
      assert.ok(!JSON.stringify(log).includes("grace"), "the log holds no address");
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "opt-out: rate limited per client; without mail the page says whom to write to",
  DB_TEST,
  async () => {
    const mail = recordingSender();
    const env = await createTestEnv({
      ports: { mailSender: mail },
      privacy: { publicUrl: "https://svc.example", contact: null, linkHours: 24 },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await env.app.request("/privacy/opt-out", form({ email: `p${i}@example.com` }));
        statuses.push(res.status);
        await res.body?.cancel();
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
      assert.equal(mail.sent.length, 5);
      const bad = await env.app.request("/privacy/opt-out", form({ email: "not an address" }));
      assert.equal(bad.status, 400);
      assert.ok(!(await bad.text()).includes("not an address"));
    } finally {
      await env.close();
    }
    const plain = await createTestEnv({
      privacy: { publicUrl: null, contact: "privacy@operator.example", linkHours: 24 },
    });
    try {
      const page = await (await plain.app.request("/privacy/opt-out")).text();
      assert.match(page, /mailto:privacy@operator\.example/);
      assert.ok(!page.includes('name="email"'), "no form that could not send");
    } finally {
      await plain.close();
    }
  },
);
