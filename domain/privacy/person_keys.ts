/**
 * The keyed fingerprints the service-wide suppression list holds (migration 025): HMAC-SHA256
 * of a person's identifier in its normal form, under a key derived from the server secret
 * (HKDF-SHA256, info `privacy-suppression v1`, as the webhook seal derives its own key), so the
 * list names nobody to a reader of the database and a guess cannot be confirmed without the
 * secret. Three kinds of identifier, each normalised as the directory normalises it, so any
 * spelling of a suppressed person meets the same fingerprint:
 *
 * - `email`: trimmed, lower case, IDN domain in ASCII (`normalizeEmail`); an address with a `+tag`
 *   is also checked without it (it reaches the same mailbox).
 * - `profile`: the profile URL's canonical form (`normalizeNetworkUrl`, the configured network).
 * - `name`: the folded name (`foldName`: case, diacritics, spacing) `@` the registrable domain of
 *   the company (`companyDomainOf`), the directory's own dedupe key for a person without a URL;
 *   or, where only a company name is known (network search asks by employer name), the folded
 *   name `@company:` the company's normal name (`normalizeCompanyName`), as the directory keys a
 *   person whose company has no domain.
 *
 * Instances sharing a database share `SVC_SECRET`, so they share these keys; a new secret makes
 * every entry unreadable (docs/privacy.md).
 */
import { Buffer } from "node:buffer";
import { createHmac, hkdfSync } from "node:crypto";
import { normalizeEmail } from "../do_not_contact/do_not_contact_entry.ts";
import {
  companyDomainOf,
  foldName,
  normalizeCompanyName,
  normalizeNetworkUrl,
} from "../directory/normalize.ts";
import type { ProfileNetwork } from "../shared/profile_network.ts";

const KEY_INFO = "privacy-suppression v1";

export type SuppressionKind = "email" | "profile" | "name";

/** What names a person: any of their addresses, profile URLs, names at a company domain. */
export interface PersonIdentifiers {
  emails?: readonly string[];
  profileUrls?: readonly (string | null | undefined)[];
  names?: readonly {
    name: string;
    domain?: string | null;
    /** A company name, where no domain is known. */
    company?: string | null;
  }[];
}

export interface PersonKey {
  kind: SuppressionKind;
  fingerprint: string;
}

export interface PersonKeys {
  /** Every fingerprint the identifiers stand for (an unreadable identifier is left out). */
  of(identifiers: PersonIdentifiers): PersonKey[];
}

export function createPersonKeys(serverSecret: string, network?: ProfileNetwork): PersonKeys {
  const key = Buffer.from(hkdfSync("sha256", serverSecret, new Uint8Array(0), KEY_INFO, 32));
  const mac = (kind: SuppressionKind, value: string): PersonKey => ({
    kind,
    fingerprint: createHmac("sha256", key).update(`${kind}\u0000${value}`).digest("hex"),
  });
  return {
    of(identifiers) {
      const out = new Map<string, PersonKey>();
      const add = (k: PersonKey) => out.set(k.fingerprint, k);
      for (const email of identifiers.emails ?? []) {
        for (const value of emailForms(email)) add(mac("email", value));
      }
      for (const url of identifiers.profileUrls ?? []) {
        const value = url ? normalizeNetworkUrl(url, network) : null;
        if (value) add(mac("profile", value));
      }
      for (const { name, domain, company } of identifiers.names ?? []) {
        const folded = foldName(name);
        if (!folded) continue;
        const registrable = domain ? companyDomainOf(domain) : null;
        if (registrable) add(mac("name", `${folded}@${registrable}`));
        const companyKey = company ? normalizeCompanyName(company) : "";
        if (companyKey) add(mac("name", `${folded}@company:${companyKey}`));
      }
      return [...out.values()];
    },
  };
}

/** An address in its normal form, and without its `+tag` when it has one. */
function emailForms(email: string): string[] {
  const value = normalizeEmail(email);
  if (!value) return [];
  const at = value.lastIndexOf("@");
  const plus = value.indexOf("+");
  return plus > 0 && plus < at ? [value, `${value.slice(0, plus)}${value.slice(at)}`] : [value];
}
