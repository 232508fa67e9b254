/**
 * The tools end to end in headless Chromium (tests/browser/browser_world.ts: the real service
 * against the fake providers): each tool answers, the balance falls by its price, the name list
 * downloads as CSV through the browser for free, and every tool page (empty, answered, refused)
 * is screenshotted at 1280×800 and 390×844 with nothing running off a phone's screen.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { type BrowserWorld, chromium, startBrowserWorld } from "./browser/browser_world.ts";
import {
  capture,
  clickAndWait,
  fill,
  runFinished,
  signInFirstTime,
} from "./browser/page_actions.ts";

// Without Chromium (none installed, none installable) these skip; browser_world.ts says why.
const TEST = { sanitizeOps: false, sanitizeResources: false, ignore: "missing" in chromium };

/** The cost panel of the answer on the page. */
async function cost(page: Page) {
  return await page.$eval(".tool-cost", (element) => ({
    pointsCharged: Number(element.getAttribute("data-points-charged")),
    replay: element.getAttribute("data-replay") === "true",
    available: Number(element.getAttribute("data-available")),
  }));
}

/** The answer's badge: its reason and its words. */
async function badge(page: Page): Promise<string> {
  return await page.$eval(
    "[data-answer] h2 .badge",
    (element) => `${element.getAttribute("data-reason")}: ${element.textContent}`,
  );
}

async function availableOnIndex(world: BrowserWorld, page: Page): Promise<number> {
  await page.goto(`${world.base}/app/tools`, { waitUntil: "load" });
  const text = await page.$eval(".tool-intro strong", (element) => element.textContent ?? "");
  return Number(text.replace(/[^\d]/g, ""));
}

Deno.test(
  "tools in a browser: each tool answers and bills its price; the CSV is free",
  TEST,
  async (t) => {
    const world = await startBrowserWorld({ points: 5000, people: 50 });
    const page = await world.newPage();
    try {
      await signInFirstTime(world, page);

      let balance = await availableOnIndex(world, page);
      assert.equal(balance, 5000);
      await capture(world, page, "tools");

      await t.step("name parse: one name, then a list downloaded as CSV", async () => {
        await page.goto(`${world.base}/app/tools/name-parse`, { waitUntil: "load" });
        await capture(world, page, "tools-name-parse");
        await fill(page, "#name", "Dr. Tanaka Hiroshi");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.match(await page.content(), /Tanaka/);
        assert.deepEqual(await cost(page), {
          pointsCharged: 1,
          replay: false,
          available: balance - 1,
        });
        balance -= 1;
        await capture(world, page, "tools-name-parse-answer");
        await fill(page, "#name", "Madonna");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.match(await page.content(), /cannot be split/);
        await capture(world, page, "tools-name-parse-error");

        await page.goto(`${world.base}/app/tools/name-parse/list`, { waitUntil: "load" });
        await capture(world, page, "tools-name-list");
        const names = ["Ada Lovelace", "García Márquez, Gabriel", "Madonna", "Nagy László"];
        await fill(page, "#names", names.join("\n"));
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.deepEqual(await cost(page), {
          pointsCharged: 3,
          replay: false,
          available: balance - 3,
        });
        balance -= 3;
        await capture(world, page, "tools-name-list-answer");

        const downloads = await Deno.makeTempDir({ prefix: "svc-tools-csv-" });
        try {
          const cdp = await page.createCDPSession();
          await cdp.send("Browser.setDownloadBehavior", {
            behavior: "allow",
            downloadPath: downloads,
          } as never);
          await page.click(".tool-answer-head button[type=submit]");
          let csv = "";
          for (let i = 0; i < 100 && !csv; i++) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            csv = await Deno.readTextFile(`${downloads}/names.csv`).catch(() => "");
          }
          assert.ok(csv.startsWith("\uFEFFname,given,surname,"), "a header after the BOM");
          const lines = csv.slice(1).split("\r\n");
          assert.equal(lines.length, names.length + 2, "a header, a line per name, a final CRLF");
          assert.match(lines[2], /^"García Márquez, Gabriel",Gabriel,García Márquez,/);
          assert.match(lines[3], /^Madonna,,,,,,,The name cannot be split/);
        } finally {
          await Deno.remove(downloads, { recursive: true });
        }
        assert.equal(await availableOnIndex(world, page), balance, "the download was free");

        await page.goto(`${world.base}/app/tools/name-parse/list`, { waitUntil: "load" });
        await fill(page, "#names", " \n ");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.match(await page.content(), /The list must contain at least one name/);
        await capture(world, page, "tools-name-list-error");
      });

      await t.step("find email: found by domain, a refusal, a domain without mail", async () => {
        await page.goto(`${world.base}/app/tools/find`, { waitUntil: "load" });
        await capture(world, page, "tools-find");
        await fill(page, "#name", "Grace Hopper");
        await fill(page, "#company", "https://www.acme.test/about");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.match(await page.content(), /grace\.hopper@acme\.test/);
        assert.deepEqual(await cost(page), {
          pointsCharged: 10,
          replay: false,
          available: balance - 10,
        });
        balance -= 10;
        await capture(world, page, "tools-find-answer");
        await fill(page, "#company", "Acme Inc");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.match(await page.content(), /Company must be a domain or website URL/);
        await capture(world, page, "tools-find-error");
        await fill(page, "#company", "nomail.test");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.match(await page.content(), /This domain cannot receive email/);
        assert.equal(await badge(page), "unusable-domain: No mail domain");
        assert.equal((await cost(page)).pointsCharged, 0);
        await capture(world, page, "tools-find-not-found");
      });

      await t.step("network search: a match, then a search for nobody", async () => {
        await page.goto(`${world.base}/app/tools/network-search`, { waitUntil: "load" });
        await capture(world, page, "tools-network-search");
        await fill(page, "#firstName", "Grace");
        await fill(page, "#lastName", "Hopper");
        await fill(page, "#company", "Acme");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.match(await page.content(), /<span class="badge ok">Match<\/span>/);
        assert.deepEqual(await cost(page), {
          pointsCharged: 5,
          replay: false,
          available: balance - 5,
        });
        balance -= 5;
        await capture(world, page, "tools-network-search-answer");
        await fill(page, "#firstName", " ");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.match(await page.content(), /First name must not be blank/);
        await capture(world, page, "tools-network-search-error");
      });

      await t.step("enrich email: a profile and its sources", async () => {
        await page.goto(`${world.base}/app/tools/enrich`, { waitUntil: "load" });
        await capture(world, page, "tools-enrich");
        await fill(page, "#email", "grace.hopper@acme.test");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.match(await page.content(), /<span class="badge ok">Found<\/span>/);
        assert.deepEqual(await cost(page), {
          pointsCharged: 10,
          replay: false,
          available: balance - 10,
        });
        balance -= 10;
        await capture(world, page, "tools-enrich-answer");
        await fill(page, "#email", "not-an-address");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.match(await page.content(), /not a well-formed email address/);
        assert.equal(await badge(page), "invalid-input: Invalid input");
        await capture(world, page, "tools-enrich-refused");

        // An address on the do-not-contact list: refused, with its own badge and the list's link.
        await page.goto(`${world.base}/app/do-not-contact`, { waitUntil: "load" });
        await fill(page, "#dnc-entry", "grace.hopper@acme.test");
        await clickAndWait(page, "form[action='/app/do-not-contact'] button[type=submit]");
        await page.goto(`${world.base}/app/tools/enrich`, { waitUntil: "load" });
        await fill(page, "#email", "grace.hopper@acme.test");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.equal(await badge(page), "do-not-contact: Do not contact");
        assert.ok(await page.$(".tool-reason a[href='/app/do-not-contact']"), "the list's link");
        assert.equal((await cost(page)).pointsCharged, 0);
        await capture(world, page, "tools-enrich-do-not-contact");
      });

      await t.step("verify email: valid, catch-all, refused (syntax, do-not-contact)", async () => {
        await page.goto(`${world.base}/app/tools/verify`, { waitUntil: "load" });
        await capture(world, page, "tools-verify");
        const verify = async (email: string) => {
          await fill(page, "#email", email);
          await clickAndWait(page, "main form.stack button[type=submit]");
          const charged = (await cost(page)).pointsCharged;
          balance -= charged;
          assert.equal((await cost(page)).available, balance);
          return await page.$eval("[data-answer] h2", (h) => h.getAttribute("data-status"));
        };
        assert.equal(await verify("peter.gibbons@initech.test"), "valid");
        await capture(world, page, "tools-verify-valid");
        assert.equal(await verify("someone@catchall.test"), "catch-all");
        await capture(world, page, "tools-verify-catch-all");
        assert.equal(await verify("not-an-address"), "invalid");
        assert.ok(await page.$(".tool-reason[data-reason='invalid-syntax']"));
        assert.equal((await cost(page)).pointsCharged, 0);
        await capture(world, page, "tools-verify-invalid-syntax");
        // On the do-not-contact list since the enrich step: refused, nothing asked.
        await verify("grace.hopper@acme.test");
        assert.ok(await page.$(".tool-reason[data-reason='do-not-contact']"));
        assert.equal((await cost(page)).pointsCharged, 0);
        await capture(world, page, "tools-verify-do-not-contact");
      });

      assert.equal(await availableOnIndex(world, page), balance);

      await t.step("domain search: the pattern and the people, then find the rest", async () => {
        await page.goto(`${world.base}/app/domain-search`, { waitUntil: "load" });
        await capture(world, page, "domain-search");
        // The demo directory's Café Aurora: three of its four people have a verified address.
        await fill(page, "#company", "cafe-aurora.example");
        await clickAndWait(page, "main form.stack button[type=submit]");
        assert.ok(
          await page.$("[data-answer] dd[data-pattern]:not([data-pattern=''])"),
          "a pattern",
        );
        assert.ok((await page.$$("tr[data-person]")).length >= 2, "its people");
        assert.ok((await cost(page)).pointsCharged > 0, "a page with verified addresses");
        await capture(world, page, "domain-search-answer");
        await clickAndWait(page, "form[data-form='find-the-rest'] button[type=submit]");
        assert.match(new URL(page.url()).pathname, /^\/app\/bulk\/jobs\//);
        await capture(world, page, "domain-search-find-the-rest");
        await runFinished(page);
        await capture(world, page, "domain-search-find-the-rest-done");
      });
    } finally {
      await world.close();
    }
  },
);
