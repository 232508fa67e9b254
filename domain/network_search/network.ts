/**
 * The professional network whose public profiles network search finds, in one place: its host,
 * the path its profile pages live under, and the name it puts at the end of its page titles. The
 * specification calls it only "the network"; the real host would be configured here later.
 * Also the web query that looks for one person's profile on it.
 */

export interface ProfileNetwork {
  /** The registrable host; `www.` and country subdomains (`uk.`) are its pages too. */
  host: string;
  /** The path profile pages start with, with both slashes (`/in/`). */
  pathPrefix: string;
  /** The name page titles end with (`… | Network`). */
  displayName: string;
}

export const PROFILE_NETWORK: ProfileNetwork = {
  host: "network.example",
  pathPrefix: "/in/",
  displayName: "Network",
};

/**
 * `site:network.example/in "First Last" "Company"`: the network's profile pages that carry the
 * name as a phrase (and the employer's, when one is given). Double quotes (straight and curly)
 * are removed from the inputs and whitespace collapsed, so no input can close a phrase or add an
 * operator outside one; a blank company is left out.
 */
export function profileSearchQuery(
  person: { firstName: string; lastName: string; company?: string | null },
  network: ProfileNetwork = PROFILE_NETWORK,
): string {
  const name = phrase(`${person.firstName} ${person.lastName}`);
  const company = phrase(person.company ?? "");
  const site = `site:${network.host}${network.pathPrefix.replace(/\/+$/, "")}`;
  return [site, name && `"${name}"`, company && `"${company}"`].filter(Boolean).join(" ");
}

function phrase(text: string): string {
  return text.normalize("NFC").replace(/["“”„‟«»]/gu, " ").replace(/\s+/gu, " ").trim();
}
