/**
 * `GET /docs`: the API reference, the live OpenAPI document (`/api/v1/openapi.json`) rendered by
 * Swagger UI (`swagger-ui-dist`, no dependencies of its own). Its files are raw imports, so they
 * travel in the module graph (a clean clone, Deno Deploy, no node_modules lookups) and are served
 * by the app itself: no CDN, no request leaves the machine. The page, like openapi.json, needs no
 * key; it is not an operation of the API, so it is not in the document.
 */
import bundleText from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import bundleLicense from "swagger-ui-dist/swagger-ui-bundle.js.LICENSE.txt" with { type: "text" };
import swaggerCssText from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { DomainContext } from "../domain/context.ts";
import type { AppEnv } from "./app_env.ts";
import { FAVICON } from "./favicon.ts";

/**
 * Scripts and styles only from this origin. `style-src 'unsafe-inline'`: Swagger UI (React)
 * sets `style` attributes (syntax highlighting, the models' layout). `img-src data:`: its icons
 * are data: URIs in its stylesheet. The document is fetched from this origin (`default-src`).
 */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The one place the page's options live: a file, not an inline script (`script-src 'self'`).
 *
 * What keeps the reference free of axe violations (docs/decisions/0031-api-reference-renderer.md):
 * no deep links (each would be a link inside an operation's toggle button), the information
 * block wrapped in a labelled region by a Swagger UI plugin, the group headings announced at
 * level 2 under the document's title (an operation's own headings at 3), code samples and the
 * request body reachable and labelled for the keyboard, and, in `DOCS_CSS`, colours of at least
 * 4.5:1 and no server picker (the one server is this page's origin, named in the header instead).
 */
const INIT_SCRIPT = `// Renders the OpenAPI document of this service with Swagger UI.
"use strict";

// The document's one server is where this page came from: a request from "Try it out" goes to
// the origin in the address bar, whatever host, port or proxy serves the reference.
const servedFrom = globalThis.location.origin;

// The information block (title, description, licence) as a labelled region, so that everything
// on the page sits in a landmark; the operations are Swagger UI's own <main>.
const LandmarksPlugin = (system) => ({
  wrapComponents: {
    InfoContainer: (Original) => (props) =>
      system.React.createElement(
        "section",
        { "aria-label": "About this API" },
        system.React.createElement(Original, props),
      ),
  },
});

// Swagger UI titles the document with an <h1>, each group of operations with an <h3> and the
// schemas with an <h4>: they are announced one level down from the title (level 2), and the
// headings inside an operation's description one further (level 3). A code sample that scrolls
// sideways can be reached by the keyboard to scroll it.
function levelGroupHeadings() {
  const levels = [
    ["h3.opblock-tag:not([aria-level]), section.models > h4:not([aria-level])", "2"],
    [".opblock-description-wrapper .renderedMarkdown :is(h1, h2, h3, h4, h5):not([aria-level])", "3"],
  ];
  for (const [selector, level] of levels) {
    for (const heading of document.querySelectorAll(selector)) {
      heading.setAttribute("role", "heading");
      heading.setAttribute("aria-level", level);
    }
  }
  const samples = ".highlight-code pre:not([tabindex]), .renderedMarkdown pre:not([tabindex])";
  for (const sample of document.querySelectorAll(samples)) {
    sample.setAttribute("tabindex", "0");
  }
  // "Try it out"'s request body has no label of its own.
  for (const body of document.querySelectorAll("textarea.body-param__text:not([aria-label])")) {
    body.setAttribute("aria-label", "Request body (JSON)");
  }
}
new MutationObserver(levelGroupHeadings).observe(document.getElementById("swagger-ui"), {
  childList: true,
  subtree: true,
});

fetch("/api/v1/openapi.json", { credentials: "same-origin" })
  .then((response) => response.json())
  .then((spec) => {
    spec.servers = [{ url: servedFrom, description: "This service" }];
    const named = document.getElementById("served-from");
    if (named) named.textContent = servedFrom;
    globalThis.ui = SwaggerUIBundle({
      spec,
      dom_id: "#swagger-ui",
      presets: [SwaggerUIBundle.presets.apis],
      plugins: [LandmarksPlugin],
      layout: "BaseLayout",
      validatorUrl: null,
      // A deep link puts a link inside each operation's toggle button (nested-interactive).
      deepLinking: false,
      tryItOutEnabled: false,
      requestSnippetsEnabled: true,
      docExpansion: "list",
      defaultModelsExpandDepth: 0,
      displayRequestDuration: true,
      persistAuthorization: false,
      syntaxHighlight: { activated: true, theme: "agate" },
    });
  });
`;

/** The page's own header, and Swagger UI fitted to it (widths, narrow screens). */
const DOCS_CSS = `:root {
  --ink: #1c2330;
  --muted: #5b6576;
  --line: #dde2ea;
  --accent: #2f5bd3;
  color-scheme: light;
}
body {
  margin: 0;
  background: #ffffff;
  color: var(--ink);
}
.docs-header {
  display: flex;
  align-items: center;
  gap: 0.75rem 1.25rem;
  flex-wrap: wrap;
  padding: 0.7rem 1.25rem;
  background: #ffffff;
  border-bottom: 1px solid var(--line);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans",
    sans-serif;
}
.docs-header .back {
  color: var(--accent);
  text-decoration: none;
  white-space: nowrap;
}
.docs-header .back:hover,
.docs-header .back:focus-visible {
  text-decoration: underline;
}
.docs-header h1 {
  margin: 0;
  font-size: 1.15rem;
  font-weight: 650;
  line-height: 1.3;
}
.docs-header .brand-mark {
  color: var(--accent);
}
.docs-header .raw {
  margin-left: auto;
  color: var(--muted);
  font-size: 0.9rem;
}
.docs-loading {
  max-width: 1200px;
  margin: 2rem auto;
  padding: 0 1.25rem;
  color: var(--muted);
  font: 15px/1.5 system-ui, sans-serif;
}
.swagger-ui .wrapper {
  max-width: 1200px;
  padding: 0 1.25rem;
}
.swagger-ui .information-container .info {
  margin: 1.5rem 0 1rem;
}
/* The curl example of each operation's description: a dark block like Swagger UI's own. */
.swagger-ui .markdown pre,
.swagger-ui .renderedMarkdown pre {
  margin: 0.25rem 0 0.75rem;
  padding: 0.75rem 1rem;
  overflow-x: auto;
  background: #1f2430;
  color: #e6e9ef;
  border-radius: 6px;
  white-space: pre;
}
.swagger-ui .markdown pre code,
.swagger-ui .renderedMarkdown pre code {
  padding: 0;
  background: none;
  color: inherit;
  font-size: 13px;
  font-weight: 400;
  line-height: 1.5;
}
.swagger-ui .markdown h4,
.swagger-ui .renderedMarkdown h4 {
  margin: 1rem 0 0.25rem;
  font-size: 14px;
}
/* Contrast of at least 4.5:1 for every text Swagger UI draws on colour (WCAG AA). */
.swagger-ui .opblock .opblock-summary-method {
  color: #ffffff;
  text-shadow: none;
}
.swagger-ui .opblock.opblock-get .opblock-summary-method {
  background: #1d5fa8;
}
.swagger-ui .opblock.opblock-post .opblock-summary-method {
  background: #17794b;
}
.swagger-ui .opblock.opblock-delete .opblock-summary-method {
  background: #b42318;
}
.swagger-ui .opblock.opblock-put .opblock-summary-method {
  background: #9a4d00;
}
.swagger-ui .opblock.opblock-patch .opblock-summary-method {
  background: #1f7a70;
}
.swagger-ui .info .title small {
  background: #5b6576;
}
.swagger-ui .info .title small.version-stamp {
  background: #3f6b00;
}
.swagger-ui .info .title small pre {
  color: #ffffff;
}
.swagger-ui .info a,
.swagger-ui .info .link,
.swagger-ui .info .url,
.swagger-ui a.nostyle,
.swagger-ui .markdown a,
.swagger-ui .renderedMarkdown a {
  color: #2f5bd3;
}
.swagger-ui .btn.authorize {
  color: #17794b;
  border-color: #17794b;
}
.swagger-ui .btn.authorize span {
  color: #17794b;
}
.swagger-ui .btn.authorize svg {
  fill: #17794b;
}
/* One server, the one this page came from: nothing to choose (the header names it). */
.swagger-ui .scheme-container .schemes > .schemes-server-container {
  display: none;
}
.swagger-ui .scheme-container .schemes {
  justify-content: flex-end;
}
.swagger-ui .parameter__in,
.swagger-ui .parameter__deprecated {
  color: #5b6576;
}
/* The "agate" highlighting's numbers (#d36363 on #333333, 3.4:1) lightened to 5:1. */
.swagger-ui .microlight span[style*="rgb(211, 99, 99)"] {
  color: #f08a8a !important;
}
.swagger-ui .btn.cancel {
  color: #b42318;
  border-color: #b42318;
}
.swagger-ui .btn.execute {
  background-color: #1d5fa8;
  border-color: #1d5fa8;
}
.docs-header .origin {
  color: var(--muted);
  font-size: 0.9rem;
  overflow-wrap: anywhere;
}
@media (max-width: 760px) {
  .docs-header {
    padding: 0.6rem 0.9rem;
  }
  .docs-header .raw {
    display: none;
  }
  .swagger-ui .wrapper {
    padding: 0 0.75rem;
  }
  .swagger-ui .info .title {
    font-size: 1.6rem;
  }
  .swagger-ui .opblock .opblock-summary-path {
    overflow-wrap: anywhere;
  }
  .swagger-ui .scheme-container {
    padding: 1rem 0;
  }
}
`;

interface Asset {
  /** The path it is served at; the page asks for it with `?v=<hash of the content>`. */
  path: string;
  body: string;
  contentType: string;
}

/** FNV-1a of the text, as a short version for URLs and the ETag. */
function contentHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

export const DOCS_ASSETS = {
  bundle: { path: "/docs/assets/swagger-ui-bundle.js", body: bundleText, contentType: JS },
  css: {
    path: "/docs/assets/swagger-ui.css",
    // The source map is not shipped: no request for it from the browser's developer tools.
    body: swaggerCssText.replace(/\/\*# sourceMappingURL=[^*]*\*\/\s*$/, ""),
    contentType: CSS,
  },
  license: {
    // The bundle's first line names this file for its licences.
    path: "/docs/assets/swagger-ui-bundle.js.LICENSE.txt",
    body: bundleLicense,
    contentType: "text/plain; charset=utf-8",
  },
  init: { path: "/docs/assets/docs.js", body: INIT_SCRIPT, contentType: JS },
  docsCss: { path: "/docs/assets/docs.css", body: DOCS_CSS, contentType: CSS },
} satisfies Record<string, Asset>;

const VERSIONS = new Map<string, string>(
  Object.values(DOCS_ASSETS).map((asset) => [asset.path, contentHash(asset.body)]),
);

/** An asset's URL, with its content hash so a changed file is a new URL. */
function assetUrl(asset: Asset): string {
  return `${asset.path}?v=${VERSIONS.get(asset.path)}`;
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Contact data</title>
<link rel="icon" href="${FAVICON}">
<link rel="stylesheet" href="${assetUrl(DOCS_ASSETS.css)}">
<link rel="stylesheet" href="${assetUrl(DOCS_ASSETS.docsCss)}">
<script src="${assetUrl(DOCS_ASSETS.bundle)}" defer></script>
<script src="${assetUrl(DOCS_ASSETS.init)}" defer></script>
</head>
<body>
<header class="docs-header">
<a class="back" href="/app">← Back to the app</a>
<h1><span class="brand-mark" aria-hidden="true">◆</span> Contact data · API reference</h1>
<span class="origin">Requests go to <span id="served-from">this service</span></span>
<a class="raw" href="/api/v1/openapi.json">openapi.json</a>
</header>
<div id="swagger-ui"><p class="docs-loading">Loading the API reference… It needs JavaScript; the same document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p></div>
</body>
</html>
`;

const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": DOCS_CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-cache",
};

const IMMUTABLE = "public, max-age=31536000, immutable";

export function mountDocs(app: OpenAPIHono<AppEnv>, _ctx: DomainContext): void {
  // Plain routes, not `app.openapi`: the reference is not an operation of the API.
  app.get("/docs", (c) => c.body(PAGE, 200, PAGE_HEADERS));
  app.get("/docs/", (c) => c.redirect("/docs", 301));
  for (const asset of Object.values(DOCS_ASSETS) as Asset[]) {
    app.get(asset.path, (c) => serveAsset(c, asset));
  }
}

/**
 * The asset, cached for a year when asked for by its current version (`?v=`), else revalidated
 * with its ETag (an old page, or a hand-typed URL, never pins a stale file for a year). Gzipped
 * (once, on first request) for a client that accepts it: the bundle is 1.7 MB, 0.5 MB gzipped.
 */
async function serveAsset(c: Context<AppEnv>, asset: Asset): Promise<Response> {
  const version = VERSIONS.get(asset.path)!;
  const gzip = /\bgzip\b/i.test(c.req.header("Accept-Encoding") ?? "");
  const etag = gzip ? `"${version}-gzip"` : `"${version}"`;
  const headers: Record<string, string> = {
    "Content-Type": asset.contentType,
    "Cache-Control": c.req.query("v") === version ? IMMUTABLE : "no-cache",
    "ETag": etag,
    "Vary": "Accept-Encoding",
    "X-Content-Type-Options": "nosniff",
  };
  const ifNoneMatch = c.req.header("If-None-Match") ?? "";
  if (ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return c.body(null, 304, headers);
  }
  if (!gzip) return c.body(asset.body, 200, headers);
  headers["Content-Encoding"] = "gzip";
  return c.body(await gzipped(asset), 200, headers);
}

const GZIPPED = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

function gzipped(asset: Asset): Promise<Uint8Array<ArrayBuffer>> {
  let bytes = GZIPPED.get(asset.path);
  if (!bytes) {
    const stream = new Blob([asset.body]).stream().pipeThrough(new CompressionStream("gzip"));
    bytes = new Response(stream).bytes();
    GZIPPED.set(asset.path, bytes);
  }
  return bytes;
}
