/**
 * The Bulk, Webhooks and Ledger pages in headless Chromium (tests/browser/browser_world.ts: the
 * real service against the fake providers): a webhook endpoint registered in Settings (a receiver
 * in this process on 127.0.0.1), a CSV file uploaded and quoted (a bad row reported by its line),
 * the job started and followed to its end, the results downloaded, a list the workspace cannot
 * pay refused, the job's delivery in the log and sent again, and the ledger showing the job as
 * one line. Every page is screenshotted at 1280×800 and 390×844 with nothing running off a
 * phone's screen.
 */
import assert from "node:assert/strict";
import { SMTPServer } from "smtp-server";
import { FAKE_TLS_CA_FILE } from "./fakes/smtp_server.ts";
import { chromium, startBrowserWorld } from "./browser/browser_world.ts";
import {
  capture,
  clickAndWait,
  fetchInPage,
  fill,
  runFinished,
  signInFirstTime,
} from "./browser/page_actions.ts";

// Without Chromium (none installed, none installable) these skip; browser_world.ts says why.
const TEST = { sanitizeOps: false, sanitizeResources: false, ignore: "missing" in chromium };

const LIST = [
  "name,company",
  "Grace Hopper,acme.test",
  "Nobody Here,acme.test",
  ",acme.test",
  "Ann Other,nomail.test",
].join("\n");

/** A mail submission server on 127.0.0.1 (STARTTLS, any login) that keeps what it is given. */
async function startSubmissionServer() {
  const tls = new URL("./fakes/tls/", import.meta.url);
  const messages: string[] = [];
  const server = new SMTPServer({
    key: await Deno.readTextFile(new URL("server-key.pem", tls)),
    cert: await Deno.readTextFile(new URL("server.pem", tls)),
    logger: false,
    disableReverseLookup: true,
    authMethods: ["PLAIN", "LOGIN"],
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      let text = "";
      stream.on("data", (chunk: Uint8Array) => text += new TextDecoder().decode(chunk));
      stream.on("end", () => {
        messages.push(text);
        callback();
      });
    },
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as { port: number };
  return {
    port,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

Deno.test("bulk, webhooks and the ledger in a browser", TEST, async (t) => {
  const received: string[] = [];
  const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    received.push(await req.text());
    return new Response(null, { status: 200 });
  });
  const submission = await startSubmissionServer();
  const submitted = submission.messages;
  const world = await startBrowserWorld({
    points: 1000,
    people: 10,
    serviceEnv: {
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true",
      // The opt-out page's confirmation mail goes to a submission server in this process.
      MAIL_SUBMISSION_URL: `smtp://svc:secret@127.0.0.1:${submission.port}`,
      MAIL_SUBMISSION_CA_FILE: FAKE_TLS_CA_FILE,
      MAIL_FROM: "privacy@svc.example",
      PUBLIC_URL: "https://svc.example",
    },
  });
  const page = await world.newPage();
  page.on("dialog", (dialog) => dialog.accept());
  const files = await Deno.makeTempDir({ prefix: "svc-bulk-browser-" });
  try {
    await signInFirstTime(world, page);

    await t.step("Settings → Webhooks: add an endpoint, its secret shown once", async () => {
      await page.goto(`${world.base}/app/settings/webhooks`, { waitUntil: "load" });
      await capture(world, page, "webhooks");
      await fill(page, "#hook-url", `http://127.0.0.1:${receiver.addr.port}/hooks`);
      await clickAndWait(page, "main form.stack button[type=submit]");
      const secret = await page.$eval("#new-webhook-secret", (e) => e.getAttribute("value"));
      assert.match(secret ?? "", /^whsec_/);
      await capture(world, page, "webhooks-secret");
      await fill(page, "#hook-url", "ftp://127.0.0.1/x");
      await clickAndWait(page, "main form.stack button[type=submit]");
      assert.match(await page.content(), /The URL must be an https URL/);
      await capture(world, page, "webhooks-error");
    });

    let jobUrl = "";
    await t.step("Bulk: upload a file, the quote, start, follow it to the end", async () => {
      await page.goto(`${world.base}/app/bulk`, { waitUntil: "load" });
      await capture(world, page, "bulk");
      await Deno.writeTextFile(`${files}/list.csv`, LIST);
      const input = await page.$("#bulk-file");
      await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(
        `${files}/list.csv`,
      );
      await clickAndWait(page, "form[action='/app/bulk'] button[type=submit]");
      const quote = await page.content();
      assert.match(quote, /data-quote-rows="3"/);
      assert.match(quote, /Line 4/);
      await capture(world, page, "bulk-quote");
      await clickAndWait(page, ".bulk-start button[type=submit]");
      assert.match(page.url(), /\/app\/bulk\/jobs\/job_/);
      jobUrl = page.url().replace(/\?.*$/, "");
      const summary = await runFinished(page);
      assert.match(summary, /Completed/);
      assert.match(summary, /3 of 3 rows answered/);
      // The first rows beside the download: name, company, address, status.
      const rows = await page.evaluate(`Array.from(
        document.querySelectorAll("table.bulk-rows tbody tr"),
        (tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent),
      )`) as string[][];
      assert.equal(rows.length, 3);
      assert.ok(rows.some((cells) => cells.includes("grace.hopper@acme.test")), "a found address");
      assert.ok(await page.$(".bulk-first-rows a[href$='/results.csv']"), "the download beside");
      await capture(world, page, "bulk-job");
      const csv = await fetchInPage(page, `${new URL(jobUrl).pathname}/results.csv`);
      assert.equal(csv.status, 200);
      assert.match(csv.text, /grace\.hopper@acme\.test/);
      await page.goto(`${world.base}/app/bulk`, { waitUntil: "load" });
      assert.ok(await page.$("table.bulk-jobs tbody tr"), "the job is listed");
      await capture(world, page, "bulk-jobs");
    });

    await t.step("Bulk: a list the workspace cannot pay is refused", async () => {
      await page.goto(`${world.base}/app/bulk`, { waitUntil: "load" });
      await page.click("input[name=operation][value=enrich]");
      const emails = Array.from({ length: 150 }, (_, i) => `person${i}@acme.test`);
      await fill(page, "#bulk-list", ["email", ...emails].join("\n"));
      await clickAndWait(page, "form[action='/app/bulk'] button[type=submit]");
      assert.match(await page.content(), /Not enough points/);
      assert.equal(await page.$(".bulk-start"), null, "no start button");
      await capture(world, page, "bulk-quote-short");
    });

    await t.step("the job's delivery in the log, sent again", async () => {
      for (let i = 0; i < 100 && received.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(received.length, 1, "the job's end was delivered");
      assert.equal(JSON.parse(received[0]).type, "bulk.job.completed");
      await page.goto(`${world.base}/app/settings/webhooks`, { waitUntil: "load" });
      assert.ok(await page.$("tr[data-status=delivered]"));
      await capture(world, page, "webhooks-deliveries");
      await clickAndWait(page, "form[action$='/send-again'] button");
      assert.match(await page.content(), /Queued to be sent again/);
      for (let i = 0; i < 100 && received.length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(received.length, 2, "sent again");
    });

    await t.step("the ledger: the job is one line of what it cost", async () => {
      await page.goto(`${world.base}/app/ledger`, { waitUntil: "load" });
      const kinds = await page.$$eval(
        "table.ledger-lines tbody tr",
        (rows) => rows.map((row) => [row.getAttribute("data-kind"), row.getAttribute("data-net")]),
      );
      assert.deepEqual(kinds, [["job", "-20"], ["grant", "1000"]]);
      await page.click(".ledger-steps summary");
      await capture(world, page, "ledger");
      await page.goto(`${world.base}/app`, { waitUntil: "load" });
      await capture(world, page, "overview-ledger");
    });

    await t.step("Settings → Audit log: the endpoint registered, the points granted", async () => {
      await page.goto(`${world.base}/app/settings/audit-log`, { waitUntil: "load" });
      const actions = await page.$$eval(
        "table.audit-log tbody tr",
        (rows) => rows.map((row) => row.getAttribute("data-action")),
      );
      assert.ok(actions.includes("webhook-endpoint.created"), actions.join(", "));
      await capture(world, page, "audit-log");
    });

    await t.step("the public opt-out page, signed out: the form, then its answer", async () => {
      const signedOut = await world.browser.createBrowserContext();
      try {
        const visitor = await signedOut.newPage();
        await visitor.setViewport({ width: 1280, height: 800 });
        await visitor.goto(`${world.base}/privacy/opt-out`, { waitUntil: "load" });
        assert.ok(await visitor.$("#opt-out-email"), "the form (mail can be sent)");
        await capture(world, visitor, "opt-out", { openSection: false });
        await fill(visitor, "#opt-out-email", "someone@acme.test");
        await clickAndWait(visitor, "form[action='/privacy/opt-out'] button[type=submit]");
        assert.match(await visitor.content(), /Check your mailbox/);
        await capture(world, visitor, "opt-out-sent", { openSection: false });
        assert.equal(submitted.length, 1, "the confirmation message was submitted");
      } finally {
        await signedOut.close();
      }
    });
  } finally {
    await world.close();
    await submission.close();
    await receiver.shutdown();
    await Deno.remove(files, { recursive: true });
  }
});
