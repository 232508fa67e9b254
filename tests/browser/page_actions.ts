/**
 * What the browser tests do on a page: click and wait, fill a field, capture, fetch, sign in, wait
 * for a run or job to end.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { type BrowserWorld, horizontalOverflow, VIEWPORTS } from "./browser_world.ts";
import { axeViolations, navigationProblems, wordingProblems } from "./page_checks.ts";

/** The password the member chooses after the one-time one. */
export const MEMBER_PASSWORD = "a long browser passphrase";

export async function clickAndWait(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click(selector)]);
}

/** Sets a field's value (also a textarea with line breaks), as typing would. */
export async function fill(page: Page, selector: string, value: string): Promise<void> {
  await page.$eval(
    selector,
    (element, text) => ((element as unknown as { value: string }).value = text as string),
    value,
  );
}

/**
 * Screenshots at both sizes, then at each size: nothing wider than the phone's screen, no axe
 * violation, every navigation item reachable with the open one marked (`openSection: false` for a
 * page no item stands for), and numbers as a person reads them (browser/page_checks.ts).
 */
export async function capture(
  world: BrowserWorld,
  page: Page,
  name: string,
  options: { openSection?: boolean } = {},
): Promise<void> {
  await world.screenshot(page, name);
  // A live page (a run or job under way) reloads itself when it ends: checks interrupted by
  // that navigation are made again on the page it became.
  let problems: string[] = [];
  for (let attempt = 1;; attempt++) {
    try {
      problems = await pageProblems(page, options.openSection ?? true);
      break;
    } catch (e) {
      if (attempt === 3 || !/context was destroyed|navigat/i.test(String(e))) throw e;
      await page.waitForFunction("document.readyState === 'complete'", { timeout: 15_000 });
    }
  }
  await page.setViewport({ width: VIEWPORTS[0].width, height: VIEWPORTS[0].height });
  assert.deepEqual(problems, [], `${name}: what a person would meet`);
}

async function pageProblems(page: Page, openSection: boolean): Promise<string[]> {
  const problems: string[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewport({ width: viewport.width, height: viewport.height });
    // Two frames: app.js marks the tables that scroll after the resize.
    await page.evaluate(
      "new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))",
    );
    const at = (problem: string) => `${viewport.name}: ${problem}`;
    if (viewport.name === "phone") {
      problems.push(...(await horizontalOverflow(page)).map((e) => at(`wider than 390 px: ${e}`)));
    }
    problems.push(...(await axeViolations(page)).map(at));
    problems.push(...(await navigationProblems(page, openSection)).map(at));
  }
  problems.push(...await wordingProblems(page));
  return problems;
}

/** Runs `fetch` inside the page (same origin, the session cookie goes along). */
export async function fetchInPage(
  page: Page,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string }> {
  return await page.evaluate(
    `fetch(${JSON.stringify(path)}, ${JSON.stringify({ credentials: "same-origin", ...init })})
       .then(async (r) => ({ status: r.status, text: await r.text() }))`,
  ) as { status: number; text: string };
}

/** Signs the world's member in with the one-time password and chooses MEMBER_PASSWORD. */
export async function signInFirstTime(world: BrowserWorld, page: Page): Promise<void> {
  await page.goto(`${world.base}/app/sign-in`, { waitUntil: "load" });
  await page.type("#email", world.email);
  await page.type("#password", world.oneTimePassword);
  await clickAndWait(page, "button[type=submit]");
  await page.type("#password", MEMBER_PASSWORD);
  await page.type("#confirmation", MEMBER_PASSWORD);
  await clickAndWait(page, "button[type=submit]");
}

/**
 * Waits until a run's or a bulk job's page shows it ended. app.js reloads the page at that moment,
 * so the check is retried across the reload rather than held on one document.
 */
export async function runFinished(page: Page): Promise<string> {
  for (let i = 0; i < 150; i++) {
    try {
      const done = await page.$eval(
        ".lead-progress",
        (element) => element.getAttribute("data-done") === "true" ? element.textContent : null,
      );
      if (done && (await page.evaluate("document.readyState")) === "complete") {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const settled = await page.$eval(".lead-progress", (element) => element.textContent ?? "");
        return settled;
      }
    } catch { /* the page is reloading */ }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the run or job did not finish within 30 s");
}
