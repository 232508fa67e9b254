/**
 * The opt-out flow end to end against real mail software (`submission_world.ts`): the service
 * submits the confirmation through Debian's Postfix (STARTTLS required, SASL authentication) with
 * its own adapter (nodemailer), Postfix delivers it to a local mailbox, the test reads the link
 * from the delivered message, follows it, and the address is suppressed; the audit log shows each
 * step with the public page as the actor. A wrong password is refused by the server and the page
 * says to try later, with nothing suppressed.
 *
 * Needs root and the Debian packages, installed here when missing; without them the suite says
 * why in one line and is skipped.
 */
import assert from "node:assert/strict";
import { listAuditLog } from "../../domain/audit/list_audit_log.ts";
import { isSuppressed } from "../../domain/privacy/is_suppressed.ts";
import { createConfiguredTestEnv, DB_TEST } from "../harness.ts";
import { ensureSubmissionSoftware, MAIL_DOMAIN, startSubmissionWorld } from "./submission_world.ts";

const missing = await ensureSubmissionSoftware();
if (missing) console.log(`opt-out mail suite skipped: ${missing}`);

function form(fields: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  };
}

/** A delivered message's body, quoted-printable soft breaks undone. */
function bodyOf(raw: string): string {
  const body = raw.slice(raw.indexOf("\n\n") + 2);
  return /quoted-printable/i.test(raw)
    ? body.replace(/=\r?\n/g, "").replace(
      /=([0-9A-F]{2})/g,
      (_, h) => String.fromCharCode(parseInt(h, 16)),
    )
    : body;
}

Deno.test({
  name: "opt-out: confirmation through real Postfix, delivered, followed, suppressed",
  ignore: missing !== null,
  ...DB_TEST,
  async fn() {
    const mail = await startSubmissionWorld({ mailboxes: ["ada", "alan"] });
    const address = `ada@${MAIL_DOMAIN}`;
    const env = await createConfiguredTestEnv({
      MAIL_SUBMISSION_URL: mail.url,
      MAIL_SUBMISSION_CA_FILE: mail.caFile,
      MAIL_FROM: "privacy@svc.test",
      PUBLIC_URL: "https://svc.test/",
      PROVIDER_TIMEOUT_SECONDS: "10",
    });
    try {
      const asked = await env.app.request("/privacy/opt-out", form({ email: "Ada@OptOut.test" }));
      assert.equal(asked.status, 200, await asked.clone().text());
      assert.match(await asked.text(), /Check your mailbox/);

      const [message] = await mail.waitForMail("ada");
      assert.match(message, /^From: privacy@svc\.test$/m);
      assert.match(message, new RegExp(`^To: ${address}$`, "m"));
      assert.match(message, /with ESMTPSA/, "submitted over TLS with authentication");
      const link = /https:\/\/svc\.test\/privacy\/opt-out\/confirm\?token=([A-Za-z0-9_.%-]+)/.exec(
        bodyOf(message),
      );
      assert.ok(link, bodyOf(message));
      assert.ok(!(await isSuppressed(env.ctx, { emails: [address] })));

      const page = await env.app.request(`/privacy/opt-out/confirm?token=${link[1]}`);
      assert.equal(page.status, 200);
      const token = /name="token" value="([^"]+)"/.exec(await page.text())![1];
      const done = await env.app.request("/privacy/opt-out/confirm", form({ token }));
      assert.equal(done.status, 200);
      assert.ok(await isSuppressed(env.ctx, { emails: [address] }));

      const steps = (await listAuditLog(env.ctx, {})).entries.reverse();
      assert.deepEqual(steps.map((e) => [e.action, e.actor.kind]), [
        ["privacy.opt-out-requested", "public-page"],
        ["privacy.erased", "public-page"],
        ["privacy.opt-out-confirmed", "public-page"],
      ]);
      const log = await mail.log();
      assert.match(log, /sasl_method=PLAIN, sasl_username=svc/);
      assert.match(log, /status=sent \(delivered to maildir\)/);
    } finally {
      await env.close();
    }

    // The server refuses a wrong password: the page says to try later, nothing is sent.
    const wrong = await createConfiguredTestEnv({
      MAIL_SUBMISSION_URL: mail.url.replace(/:([^:@]+)@/, ":not-the-password@"),
      MAIL_SUBMISSION_CA_FILE: mail.caFile,
      MAIL_FROM: "privacy@svc.test",
      PUBLIC_URL: "https://svc.test",
    });
    try {
      const refused = await wrong.app.request(
        "/privacy/opt-out",
        form({ email: `alan@${MAIL_DOMAIN}` }),
      );
      assert.equal(refused.status, 503);
      await refused.body?.cancel();
      assert.deepEqual(await mail.mailbox("alan"), []);
      assert.ok(!wrong.logLines.join("\n").includes("alan@"), "the log names no address");
    } finally {
      await wrong.close();
      await mail.stop();
    }
  },
});
