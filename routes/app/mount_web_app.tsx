/**
 * The web app under `/app` (and `/` redirecting there): server-rendered pages (hono/jsx) for the
 * members of a workspace. Every page calls the same domain verbs as the API; the session is never
 * accepted by `/api/v1/…` (spec §5.4).
 */
import { Hono } from "hono";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import type { AppEnv } from "../app_env.ts";
import { mountAppAssets } from "./assets.ts";
import { ErrorPage, NotFoundPage } from "./layout.tsx";
import { readSession } from "../../domain/members/read_session.ts";
import { readAppCookie, SESSION_COOKIE } from "./session_cookie.ts";
import { mountSignIn } from "./sign_in.tsx";
import { mountChoosePassword } from "./choose_password.tsx";
import { mountOverview } from "./overview.tsx";
import { mountApiKeys } from "./api_keys.tsx";
import { mountPrices } from "./prices.tsx";
import { mountDoNotContact } from "./do_not_contact.tsx";
import { mountTools } from "./tools/mount_tools.tsx";
import { mountDomainSearchPage } from "./domain_search.tsx";
import { mountLeadSearchPages } from "./lead_search_pages.tsx";
import { mountBulkPages } from "./bulk_pages.tsx";
import { mountLedger } from "./ledger.tsx";
import { mountWebhooks } from "./webhooks.tsx";
import { mountAuditLog } from "./audit_log.tsx";
import { mountOptOut } from "./opt_out.tsx";
import type { WebEnv } from "./web_env.ts";

/** Security headers of every page: no framing, no sniffing, only our own scripts. */
const PAGE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};

export function mountWebApp(
  app: OpenAPIHono<AppEnv>,
  ctx: DomainContext,
  api: {
    openApiDocument: () => Record<string, unknown>;
    /** The methods some route answers on a path (empty: no route has it), for 405 over 404. */
    allowedMethods: (path: string) => string[];
  },
): void {
  const web = new Hono<WebEnv>();
  web.use("*", async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(PAGE_HEADERS)) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
    if (c.res.headers.get("Content-Type")?.startsWith("text/html")) {
      c.res.headers.set("Cache-Control", "no-store");
    }
  });
  mountAppAssets(web);
  mountSignIn(web, ctx);
  mountChoosePassword(web, ctx);
  mountOverview(web, ctx);
  mountApiKeys(web, ctx);
  mountPrices(web, ctx, api.openApiDocument);
  mountDoNotContact(web, ctx);
  mountTools(web, ctx);
  mountDomainSearchPage(web, ctx);
  mountLeadSearchPages(web, ctx);
  mountBulkPages(web, ctx);
  mountLedger(web, ctx);
  mountWebhooks(web, ctx);
  mountAuditLog(web, ctx);

  // Last, after every page: any other address under /app is a page too (the API's JSON 404 is
  // for /api/…). Hono asks a mounted app's own `notFound` only for the mounting app, so this is
  // a route. A signed-in member gets the navigation with it; anyone else the way to sign in.
  web.all("*", async (c) => {
    // A page's address with another method is the API's 405 (with `Allow`), not a missing page.
    if (api.allowedMethods(new URL(c.req.url).pathname).length > 0) return c.notFound();
    const token = readAppCookie(c, SESSION_COOKIE);
    const member = token ? await readSession(ctx, token) : null;
    c.status(404);
    return c.html(<NotFoundPage member={member?.mustChoosePassword ? null : member} />);
  });
  web.onError((error, c) => {
    ctx.logger.error("web app error", {
      requestId: c.get("requestId"),
      errorName: (error as Error)?.name ?? typeof error,
    });
    c.status(500);
    return c.html(
      <ErrorPage
        title="Something went wrong"
        message="The page could not be shown. Nothing was charged for an answer you did not see. Try again in a moment."
      />,
    );
  });

  app.get("/", (c) => c.redirect("/app", 302));
  app.route("/app", web);
  mountOptOut(app, ctx);
}
