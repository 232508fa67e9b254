/**
 * The professional network whose public profile pages network search finds, find's `network`
 * mode reads and enrich cross-references: its host, the path its profile pages live under, and the
 * name its page titles end with. Configured (`NETWORK_PROFILE_HOST`, `NETWORK_PROFILE_PATH`,
 * `NETWORK_TITLE_SUFFIX`) and passed in; the default is the real network the specification's word
 * "network" stands for. Also the one reading of a profile URL every caller shares, so the
 * directory key, the `site:` query and the search results agree on what a profile page is.
 */

export interface ProfileNetwork {
  /** The registrable host, lower case, no `www.`; `www.` and country subdomains are its pages too. */
  host: string;
  /** The path profile pages start with, with both slashes (`/in/`). */
  pathPrefix: string;
  /** The name page titles end with (`… | LinkedIn`). */
  displayName: string;
}

export const DEFAULT_PROFILE_NETWORK: ProfileNetwork = Object.freeze({
  host: "linkedin.com",
  pathPrefix: "/in/",
  displayName: "LinkedIn",
});

const SLUG = /^[A-Za-z0-9%_-]{1,200}$/;
/** A language version after the slug: `/en`, `/de`, `/pt-br`, `/zh_CN`. */
const LANGUAGE_VERSION = /^[a-z]{2}(?:[-_][a-z]{2})?$/i;

/**
 * A profile page's canonical URL, `https://{host}{prefix}{slug}`, or null when `raw` is not one:
 * the network's host or any subdomain of it (`www.`, `uk.`, `de.`), http or https (a URL without a
 * scheme is read as https), no port or credentials, the profile prefix and one slug, optionally a
 * language version (`/in/ada-l/en`). The query, fragment, language version, trailing slash and
 * subdomain are dropped and the slug lower-cased: every way a page is linked reaches one key.
 */
export function canonicalProfileUrl(raw: string, network: ProfileNetwork): string | null {
  const url = linkUrl(raw);
  if (!url) return null;
  if (url.port !== "" || url.username !== "" || url.password !== "") return null;
  const base = network.host.toLowerCase().replace(/\.$/, "");
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host !== base && !host.endsWith(`.${base}`)) return null;
  const prefix = `/${network.pathPrefix.replace(/^\/+|\/+$/g, "").toLowerCase()}/`;
  if (!url.pathname.toLowerCase().startsWith(prefix)) return null;
  const parts = url.pathname.slice(prefix.length).replace(/\/+$/, "").split("/");
  if (parts.length > 2 || (parts.length === 2 && !LANGUAGE_VERSION.test(parts[1]))) return null;
  const slug = parts[0];
  if (!SLUG.test(slug) || !/[A-Za-z0-9]/.test(slug) || !decodes(slug)) return null;
  return `https://${base}${prefix}${slug.toLowerCase()}`;
}

/** A link as people write it: an http(s) URL, one without a scheme read as https; else null. */
export function linkUrl(raw: string): URL | null {
  let input = raw.trim();
  if (!input) return null;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) input = `https://${input.replace(/^\/+/, "")}`;
  try {
    const url = new URL(input);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

function decodes(slug: string): boolean {
  try {
    decodeURIComponent(slug);
    return true;
  } catch {
    return false;
  }
}
