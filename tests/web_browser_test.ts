/**
 * The web app end to end in headless Chromium (tests/browser/browser_world.ts): a member signs in
 * with a one-time password and chooses their own, creates an API key and uses it, revokes it,
 * starts a lead-search run and watches it complete, cancels one, exports CSV, and signs out (the
 * tools: tests/web_tools_browser_test.ts). A session cookie against `/api/v1/points` is
 * 401 and a form post without the CSRF token is refused. Every page is screenshotted at 1280×800
 * and 390×844 and checked for content running off the side.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { type BrowserWorld, chromium, startBrowserWorld } from "./browser/browser_world.ts";
import {
  capture,
  clickAndWait,
  fetchInPage,
  fill,
  MEMBER_PASSWORD,
  runFinished,
} from "./browser/page_actions.ts";

// Without Chromium (none installed, none installable) these skip; browser_world.ts says why.
const TEST = { sanitizeOps: false, sanitizeResources: false, ignore: "missing" in chromium };

/** The overview's "Available" figure. */
async function available(world: BrowserWorld, page: Page): Promise<number> {
  await page.goto(`${world.base}/app`, { waitUntil: "load" });
  const text = await page.$eval(".stat .value", (element) => element.textContent ?? "");
  return Number(text.replace(/[^\d]/g, ""));
}

Deno.test("web app in a browser: sign in, keys, lead search, sign out", TEST, async (t) => {
  const world = await startBrowserWorld({
    points: 5000,
    people: 300,
    // Slow pages so a run can be cancelled while it is processing.
    serviceEnv: {
      LEAD_SEARCH_POLL_MS: "100",
      LEAD_SEARCH_PAGE_DELAY_MS: "300",
      // A revoked key is refused at once (no cached verdict).
      AUTH_CACHE_SECONDS: "0",
    },
  });
  const page = await world.newPage();
  page.on("dialog", (dialog) => dialog.accept());
  try {
    await t.step("sign in with the one-time password, choose a password", async () => {
      await page.goto(`${world.base}/`, { waitUntil: "load" });
      assert.match(page.url(), /\/app\/sign-in/);
      await capture(world, page, "sign-in");
      await page.type("#email", world.email);
      await page.type("#password", "not the password");
      await clickAndWait(page, "button[type=submit]");
      assert.match(await page.content(), /Wrong email or password/);
      await capture(world, page, "sign-in-error");
      await fill(page, "#password", world.oneTimePassword);
      await clickAndWait(page, "button[type=submit]");
      assert.match(page.url(), /\/app\/password$/);
      await capture(world, page, "choose-password");
      await page.type("#password", MEMBER_PASSWORD);
      await page.type("#confirmation", MEMBER_PASSWORD);
      await clickAndWait(page, "button[type=submit]");
      assert.equal(new URL(page.url()).pathname, "/app");
      assert.equal(await available(world, page), 5000);
      await capture(world, page, "overview");
    });

    await t.step("a session is no API key; a form without its CSRF token is refused", async () => {
      const points = await fetchInPage(page, "/api/v1/points");
      assert.equal(points.status, 401);
      assert.equal(JSON.parse(points.text).error.code, "unauthenticated");
      const forged = await fetchInPage(page, "/app/sign-out", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "",
      });
      assert.equal(forged.status, 403);
      await page.goto(`${world.base}/app`, { waitUntil: "load" });
      assert.equal(new URL(page.url()).pathname, "/app", "still signed in");
    });

    await t.step("API keys: create one, use it with fetch, revoke it and see 401", async () => {
      await page.goto(`${world.base}/app/settings/api-keys`, { waitUntil: "load" });
      await capture(world, page, "api-keys-empty");
      await fill(page, "#key-name", "Browser test");
      await clickAndWait(page, "form[action='/app/settings/api-keys'] button[type=submit]");
      const key = await page.$eval(
        "#new-api-key",
        (e) => (e as unknown as { value: string }).value,
      );
      assert.match(key, /^svc_sk_[0-9a-f]{48}$/);
      assert.ok(!page.url().includes(key), "the key is never in a URL");
      await capture(world, page, "api-keys-created");
      const bearer = { headers: { Authorization: `Bearer ${key}` } };
      const points = await fetchInPage(page, "/api/v1/points", bearer);
      assert.equal(points.status, 200);
      assert.equal(JSON.parse(points.text).data.available, 5000);

      await page.goto(`${world.base}/app/settings/api-keys`, { waitUntil: "load" });
      assert.ok(!(await page.content()).includes(key), "shown once: not on the list");
      await capture(world, page, "api-keys");
      // The revoke form asks for confirmation first (the dialog is accepted).
      await clickAndWait(page, "form[data-confirm] button[type=submit]");
      assert.match(await page.content(), /[Rr]evoked/);
      const refused = await fetchInPage(page, "/api/v1/points", bearer);
      assert.equal(refused.status, 401);
      assert.equal(JSON.parse(refused.text).error.message, "Invalid API key");
    });

    await t.step("prices, the do-not-contact list and the API reference", async () => {
      await page.goto(`${world.base}/app/prices`, { waitUntil: "load" });
      assert.match(await page.content(), /answered name/);
      await capture(world, page, "prices");
      await page.goto(`${world.base}/app/do-not-contact`, { waitUntil: "load" });
      await capture(world, page, "do-not-contact-empty");
      await fill(page, "#dnc-entry", "not a domain");
      await clickAndWait(page, "form[action='/app/do-not-contact'] button[type=submit]");
      assert.ok(await page.$(".notice.error"), "a bad entry is explained");
      await capture(world, page, "do-not-contact-error");
      await fill(page, "#dnc-entry", "acme.test");
      await clickAndWait(page, "form[action='/app/do-not-contact'] button[type=submit]");
      assert.match(await page.content(), /acme\.test/);
      await capture(world, page, "do-not-contact");
      await clickAndWait(page, "form[data-confirm] button[type=submit]");
      assert.ok(await page.$(".empty"), "removed: the list is empty again");
      await page.goto(`${world.base}/docs`, { waitUntil: "load" });
      await page.waitForSelector(".opblock", { timeout: 15_000 });
      // "Try it out" sends requests to the origin the page was served from, whatever it is.
      assert.equal(await page.$eval("#served-from", (e) => e.textContent), world.base);
      await capture(world, page, "docs", { openSection: false });
      // An operation opened, with "Try it out": its form, examples and body pass too.
      await page.click("#operations-Lookups-find .opblock-summary-control");
      await page.waitForSelector("#operations-Lookups-find .try-out__btn");
      await page.click("#operations-Lookups-find .try-out__btn");
      await page.waitForSelector("#operations-Lookups-find textarea.body-param__text");
      await capture(world, page, "docs-try-it", { openSection: false });
    });

    await t.step("lead search: start, watch it complete, export CSV, cancel another", async () => {
      const before = await available(world, page);
      await page.goto(`${world.base}/app/lead-search`, { waitUntil: "load" });
      await capture(world, page, "lead-search");
      await fill(page, "#count", "40");
      await clickAndWait(page, "form[action='/app/lead-search'] button[type=submit]");
      const runPath = new URL(page.url()).pathname;
      assert.match(runPath, /^\/app\/lead-search\/runs\/run_/);
      await capture(world, page, "lead-search-run-live");
      // app.js polls the progress and reloads the page once the run is terminal.
      const summary = await runFinished(page);
      assert.match(summary, /Completed/);
      assert.match(summary, /40 of 40 leads delivered/);
      await capture(world, page, "lead-search-run-completed");
      assert.equal(await available(world, page), before - 40 * 2, "40 leads at 2 points");

      const csv = await fetchInPage(page, `${runPath}/leads.csv`);
      assert.equal(csv.status, 200);
      const lines = csv.text.trim().split(/\r?\n/);
      assert.equal(lines.length, 41, "a header and 40 leads");
      assert.match(lines[0], /name/i);
      assert.ok(!csv.text.includes("@"), "no address in a lead");

      // A bigger run, cancelled while it is processing: only delivered leads are charged.
      const beforeCancel = await available(world, page);
      await page.goto(`${world.base}/app/lead-search`, { waitUntil: "load" });
      await fill(page, "#count", "250");
      await clickAndWait(page, "form[action='/app/lead-search'] button[type=submit]");
      await page.waitForFunction(
        "document.querySelector('.lead-progress')?.textContent.includes('Processing')",
        { timeout: 15_000 },
      );
      await clickAndWait(page, "form[action$='/cancel'] button[type=submit]");
      const cancelled = await runFinished(page);
      assert.match(cancelled, /Cancelled/);
      const delivered = Number(/(\d+) of 250 leads delivered/.exec(cancelled)?.[1]);
      assert.ok(delivered < 250, `stopped early (${delivered} delivered)`);
      await capture(world, page, "lead-search-run-cancelled");
      assert.equal(await available(world, page), beforeCancel - delivered * 2);
      await page.goto(`${world.base}/app/lead-search`, { waitUntil: "load" });
      await capture(world, page, "lead-search-runs");
      // The overview's chart and ledger now hold the runs' charges.
      await available(world, page);
      assert.ok(await page.$(".chart svg rect"), "a bar for today's spending");
      await capture(world, page, "overview-spending");
    });

    await t.step("an unknown app address: a 404 page with the navigation", async () => {
      const response = await page.goto(`${world.base}/app/nope`, { waitUntil: "load" });
      assert.equal(response?.status(), 404);
      assert.match(response?.headers()["content-type"] ?? "", /^text\/html/);
      assert.equal(await page.$eval("html", (e) => e.getAttribute("lang")), "en");
      assert.ok(await page.$("nav.sidenav"), "the navigation");
      assert.ok(await page.$("main a[href='/app']"), "a link home");
      await capture(world, page, "not-found", { openSection: false });
    });

    await t.step("by keyboard on a phone: skip link first, then every section", async () => {
      await page.setViewport({ width: 390, height: 844 });
      await page.goto(`${world.base}/app/ledger`, { waitUntil: "load" });
      const reached: string[] = [];
      for (let i = 0; i < 16; i++) {
        await page.keyboard.press("Tab");
        reached.push(
          await page.evaluate("document.activeElement?.textContent?.trim() ?? ''") as string,
        );
      }
      assert.equal(reached[0], "Skip to the page");
      const labels = await page.$$eval("nav.sidenav a", (links) => links.map((a) => a.textContent));
      for (const label of labels) assert.ok(reached.includes(label!), `${label} by Tab`);
      assert.equal(
        await page.$eval("nav.sidenav a[aria-current=page]", (a) => a.textContent),
        "Ledger",
      );
      await page.setViewport({ width: 1280, height: 800 });
    });

    await t.step("sign out", async () => {
      await clickAndWait(page, "form.signout button");
      assert.match(page.url(), /\/app\/sign-in$/);
      await page.goto(`${world.base}/app`, { waitUntil: "load" });
      assert.match(page.url(), /\/app\/sign-in/);
    });
  } finally {
    await world.close();
  }
});
