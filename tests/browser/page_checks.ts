/**
 * What every page the browser tests capture must pass, at each size: no axe-core violation (the
 * default rule set: WCAG 2.x A and AA plus axe's best practices), every navigation item in sight
 * or reachable by scrolling the navigation with the open one marked, and numbers written as a
 * person reads them (no "1 rows", no confidence with more than two decimals).
 */
import type { Page } from "puppeteer-core";
import axeSource from "axe-core/axe.min.js" with { type: "text" };

/** axe-core's violations on the page as it is: `rule (impact) ×nodes: first targets`. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the pages' CSP (script-src 'self') allows.
  if (!(await page.evaluate("typeof globalThis.axe === 'object'"))) {
    await page.evaluate(axeSource);
  }
  return await page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((r) =>
    r.violations.map((v) => v.id + " (" + v.impact + ") ×" + v.nodes.length + ": " +
      v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")))`) as string[];
}

/**
 * The app's navigation at the current size: each item is on screen or inside a navigation that
 * scrolls sideways to it, at most one is marked as the open page (`aria-current`), and the marked
 * one looks different from the rest. Pages without the navigation (sign-in, /docs) pass.
 */
export async function navigationProblems(page: Page, expectOpen: boolean): Promise<string[]> {
  return await page.evaluate(`(() => {
    const nav = document.querySelector("nav.sidenav");
    if (!nav) return [];
    const problems = [];
    const width = document.documentElement.clientWidth;
    const navBox = nav.getBoundingClientRect();
    const scrolls = ["auto", "scroll"].includes(getComputedStyle(nav).overflowX) &&
      nav.scrollWidth > nav.clientWidth;
    const items = Array.from(nav.querySelectorAll("a"));
    for (const item of items) {
      const box = item.getBoundingClientRect();
      const style = getComputedStyle(item);
      if (box.width === 0 || style.visibility === "hidden" || style.display === "none") {
        problems.push(item.textContent + ": not shown");
      } else if (!scrolls && (box.left < -1 || box.right > Math.min(width, navBox.right) + 1)) {
        problems.push(item.textContent + ": off screen and the navigation does not scroll");
      }
    }
    const open = items.filter((item) => item.getAttribute("aria-current") === "page");
    if (open.length > 1) problems.push("more than one item marked open");
    if (${expectOpen} && open.length === 0) problems.push("no item marked as the open page");
    if (open.length === 1) {
      const other = items.find((item) => item !== open[0]);
      const looks = (element) => {
        const style = getComputedStyle(element);
        return style.backgroundColor + style.color + style.fontWeight;
      };
      if (other && looks(other) === looks(open[0])) problems.push("the open item looks like the rest");
    }
    const who = document.querySelector(".who");
    const signOut = document.querySelector("form.signout button");
    for (const [label, element] of [["the member's email", who], ["sign-out", signOut]]) {
      if (!element) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right > width + 1) problems.push(label + ": not on screen");
    }
    return problems;
  })()`) as string[];
}

/** Text a person should not meet: "1 rows", "1 leads", a confidence like 0.9812345. */
export async function wordingProblems(page: Page): Promise<string[]> {
  const text = await page.evaluate("document.body.innerText") as string;
  const problems: string[] = [];
  const plural = /(?<![\d.,])1 (rows|leads|names|points|entries|keys|jobs|runs|lines|units)\b/
    .exec(text);
  if (plural) problems.push(`"${plural[0]}"`);
  const long = /(?<![\d.])[01]\.\d{3,}(?![\d])/.exec(text);
  if (long) problems.push(`a number with more than two decimals: ${long[0]}`);
  return problems;
}
