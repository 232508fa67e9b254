/**
 * The web queries that look for profile pages on the configured network (`ProfileNetwork`): one
 * person's by name (and employer), or one page by its URL.
 */
import type { ProfileNetwork } from "../shared/profile_network.ts";

/**
 * `site:linkedin.com/in "First Last" "Company"`: the network's profile pages that carry the name as
 * a phrase (and the employer's, when one is given). Double quotes (straight and curly) are removed
 * from the inputs and whitespace collapsed, so no input can close a phrase or add an operator
 * outside one; a blank company is left out.
 */
export function profileSearchQuery(
  person: { firstName: string; lastName: string; company?: string | null },
  network: ProfileNetwork,
): string {
  const name = phrase(`${person.firstName} ${person.lastName}`);
  const company = phrase(person.company ?? "");
  const site = `site:${network.host}${network.pathPrefix.replace(/\/+$/, "")}`;
  return [site, name && `"${name}"`, company && `"${company}"`].filter(Boolean).join(" ");
}

/** `site:linkedin.com/in/ada-l`: one profile page, from its canonical URL. */
export function profileUrlQuery(canonicalUrl: string, network: ProfileNetwork): string {
  return `site:${network.host}${new URL(canonicalUrl).pathname}`;
}

function phrase(text: string): string {
  return text.normalize("NFC").replace(/["“”„‟«»]/gu, " ").replace(/\s+/gu, " ").trim();
}
