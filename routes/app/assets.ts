/**
 * The web app's stylesheet and script, imported as text (Deno raw imports) so they travel in the
 * module graph: served by the app itself, with a content hash in the URL and a year's caching.
 */
import css from "./assets/app.css" with { type: "text" };
import js from "./assets/app.js" with { type: "text" };
import type { Hono } from "hono";

/** FNV-1a of the file, as a short cache-busting version. */
function version(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

export const ASSET_PATHS = {
  css: `/app/assets/app.${version(css)}.css`,
  js: `/app/assets/app.${version(js)}.js`,
};

// deno-lint-ignore no-explicit-any
export function mountAppAssets(web: Hono<any>): void {
  const immutable = "public, max-age=31536000, immutable";
  web.get(
    ASSET_PATHS.css.replace("/app", ""),
    (c) =>
      c.body(css, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": immutable }),
  );
  web.get(ASSET_PATHS.js.replace("/app", ""), (c) =>
    c.body(js, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": immutable,
    }));
}
