/**
 * What the browser tests drive: the fake providers (tests/fakes/serve_fakes.ts), the real service
 * as its own process (main.ts, started the README's way, its lead-search runner on a Worker), a
 * workspace with points, demo people in the directory and a member with a one-time password, and
 * headless Chromium (Debian's `chromium`, or `CHROMIUM_PATH`) through puppeteer-core.
 *
 * Screenshots go to `SCREENSHOT_DIR` (default `screenshots/` at the repository root, ignored by
 * git), each page at 1280×800 and 390×844.
 */
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { importDemoPeople } from "../../domain/directory/import_demo_people.ts";
import { createMember } from "../../domain/members/create_member.ts";
import { openDatabase } from "../../domain/stores/database.ts";
import { migrate } from "../../domain/stores/migrate.ts";
import { createWorkspace } from "../../domain/workspaces/create_workspace.ts";
import { startFakeWorld } from "../fakes/serve_fakes.ts";
import { openTestDatabase } from "../harness.ts";
import { freePort, ServiceChild } from "../service_child.ts";
import { ensureDebianPackages, exists } from "../debian_packages.ts";

export const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

const SHOW_LOGS = Boolean(Deno.env.get("BROWSER_TEST_LOGS"));

const CHROMIUM_PROGRAMS = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

/**
 * Chromium for the browser tests: `CHROMIUM_PATH`, else Debian's, installed when missing (as
 * root with apt). Null with a one-line reason when there is none: the browser tests then skip.
 */
export async function provideChromium(): Promise<{ path: string } | { missing: string }> {
  const configured = Deno.env.get("CHROMIUM_PATH");
  if (configured) return { path: configured };
  const found = () => CHROMIUM_PROGRAMS.find(exists);
  if (!found()) {
    const why = await ensureDebianPackages([{
      package: "chromium",
      program: CHROMIUM_PROGRAMS[0],
    }]);
    if (why) return { missing: `no Chromium (${why}; or set CHROMIUM_PATH)` };
  }
  const path = found();
  return path ? { path } : { missing: "no Chromium (set CHROMIUM_PATH)" };
}

/** The browser tests' Chromium, provided once per test file; prints why when there is none. */
export const chromium = await provideChromium();
if ("missing" in chromium) console.log(`browser tests skipped: ${chromium.missing}`);

function chromiumPath(): string {
  if ("missing" in chromium) throw new Error(`browser tests: ${chromium.missing}`);
  return chromium.path;
}

export interface BrowserWorld {
  base: string;
  browser: Browser;
  workspaceId: string;
  email: string;
  oneTimePassword: string;
  screenshotDir: string;
  /** A new tab at the desktop size. */
  newPage(): Promise<Page>;
  /** Screenshots of the page's current URL at both sizes, full length. */
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startBrowserWorld(
  options: { points: number; people: number; serviceEnv?: Record<string, string> },
): Promise<BrowserWorld> {
  const executablePath = chromiumPath();
  const fakes = await startFakeWorld();
  const dataDir = await Deno.makeTempDir({ prefix: "svc-browser-" });
  const pg = Deno.env.get("TEST_DATABASE_URL") ? await openTestDatabase() : null;

  // Seed before the service starts: the embedded database is opened here, then handed over.
  const seed = pg ?? await openDatabase({ url: null, pgliteDir: `${dataDir}/pglite` });
  await migrate(seed.sql);
  await importDemoPeople({ db: seed }, { people: options.people, now: Date.now() });
  const workspace = await createWorkspace({ db: seed }, {
    name: "browser",
    points: options.points,
  });
  const email = "member@browser.example";
  const member = await createMember({ db: seed }, { workspaceId: workspace.workspaceId, email });
  if (!pg) await seed.close();

  const port = freePort();
  const child = new ServiceChild("browser", {
    ...fakes.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_REQUESTS: "false",
    ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
    ...options.serviceEnv,
  }, { clearEnv: false, show: SHOW_LOGS });
  const base = `http://127.0.0.1:${port}`;
  await child.waitHealthy(base, 30_000);

  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--font-render-hinting=none",
    ],
  });
  const screenshotDir = Deno.env.get("SCREENSHOT_DIR") ??
    new URL("../../screenshots/", import.meta.url).pathname;
  await Deno.mkdir(screenshotDir, { recursive: true });

  return {
    base,
    browser,
    workspaceId: workspace.workspaceId,
    email,
    oneTimePassword: member.oneTimePassword,
    screenshotDir,
    newPage: async () => {
      const page = await browser.newPage();
      await page.setViewport({ width: VIEWPORTS[0].width, height: VIEWPORTS[0].height });
      return page;
    },
    screenshot: async (page, name) => {
      const original = page.viewport();
      for (const viewport of VIEWPORTS) {
        await page.setViewport({ width: viewport.width, height: viewport.height });
        await page.evaluate("new Promise((resolve) => requestAnimationFrame(resolve))");
        await page.screenshot({
          path: `${screenshotDir}/${name}-${viewport.name}.png` as `${string}.png`,
          fullPage: true,
        });
      }
      if (original) await page.setViewport(original);
    },
    close: async () => {
      await browser.close().catch(() => {});
      child.signal("SIGTERM");
      await child.status;
      await fakes.close();
      await pg?.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** The page has no element wider than the viewport (nothing runs off the side on a phone). */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  // Browser-side code as a string: it runs in Chromium, not under Deno's types.
  return await page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const culprits = [];
    for (const element of Array.from(document.querySelectorAll("body *"))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0) continue;
      // Inside a scrolling container (wide tables) is fine.
      let scroller = element.parentElement;
      let scrolls = false;
      while (scroller && scroller !== document.body) {
        const style = getComputedStyle(scroller);
        if (style.overflowX === "auto" || style.overflowX === "scroll") {
          scrolls = true;
          break;
        }
        scroller = scroller.parentElement;
      }
      if (!scrolls && box.right > width + 1) {
        culprits.push(element.tagName.toLowerCase() + (element.className ? "." + element.className : ""));
      }
    }
    return culprits.slice(0, 5);
  })()`) as string[];
}
