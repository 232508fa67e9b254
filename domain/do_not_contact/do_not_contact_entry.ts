/**
 * The do-not-contact list's normal forms, shared by its verbs (migration 006): an entry is an
 * email address or a domain, stored lower case with its domain in ASCII (an IDN as punycode) and
 * no trailing dot. A domain is kept as given, not reduced to its registrable domain: `acme.com`
 * covers every address at `acme.com` or any host beneath it (`mail.acme.com`), while
 * `mail.acme.com` covers only that host and those beneath it. Pure functions, no I/O.
 */
import { parse } from "tldts";
import { ServiceError } from "../errors.ts";

export type DoNotContactKind = "email" | "domain";

export interface DoNotContactEntry {
  kind: DoNotContactKind;
  /** The normal form (lower case, ASCII domain). */
  value: string;
}

/** What a caller names: exactly one of an address or a domain. */
export interface DoNotContactTarget {
  email?: string | null;
  domain?: string | null;
}

const EMAIL_MESSAGE =
  "email must be one address such as name@example.com: a local part without spaces, one @ and a domain with a dot";
const DOMAIN_MESSAGE =
  "domain must be a host name with a dot such as example.com (no scheme, path, port, @ or IP address)";
const PUBLIC_SUFFIX_MESSAGE =
  "domain must not be a public suffix such as com or co.uk; name a domain such as example.co.uk";

/** One DNS label in ASCII: letters, digits and inner hyphens, at most 63 characters. */
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOST = new RegExp(`^${LABEL}(?:\\.${LABEL})+$`);
/**
 * A dot-atom local part (RFC 5321 §4.1.2; quoted local parts are not accepted), with the
 * non-ASCII letters RFC 6531 allows. Applied to the lower-cased address.
 */
const ATEXT = "(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\p{ASCII}\\s\\p{C}])";
const LOCAL_PART = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`, "u");
/** Characters that tell a URL, an address or a host with a port from a bare host name. */
const NOT_A_HOST = /[\s/\\:@?#[\]%]/u;

const encoder = new TextEncoder();

/**
 * A host name in its normal form (trimmed, lower case, no trailing dot, IDN in punycode), or
 * null when it is no host name with a dot (a URL, an IP address, `localhost`).
 */
export function normalizeHost(host: string): string | null {
  let value = host.trim().toLowerCase().replace(/\.$/, "");
  if (!value || NOT_A_HOST.test(value)) return null;
  if (/\P{ASCII}/u.test(value)) {
    try {
      value = new URL(`http://${value}`).hostname;
    } catch {
      return null;
    }
  }
  if (value.length > 253 || !HOST.test(value)) return null;
  if (/^\d+$/.test(value.slice(value.lastIndexOf(".") + 1))) return null; // an IPv4 address
  return value;
}

/** An address in its normal form (trimmed, lower case, ASCII domain), or null when malformed. */
export function normalizeEmail(email: string): string | null {
  const value = email.trim().toLowerCase();
  const at = value.lastIndexOf("@");
  if (at <= 0) return null;
  const local = value.slice(0, at);
  const domain = normalizeHost(value.slice(at + 1));
  if (!domain || !LOCAL_PART.test(local) || encoder.encode(local).length > 64) return null;
  const address = `${local}@${domain}`;
  return encoder.encode(address).length <= 254 ? address : null;
}

/**
 * The entry a caller names, in its normal form. Throws `validation_error` unless exactly one of
 * `email` and `domain` is given and it is well formed; a domain that is itself a public suffix
 * (`com`, `co.uk`) is refused, since it would cover a whole registry. Messages never repeat the
 * submitted value.
 */
export function parseDoNotContactEntry(target: DoNotContactTarget): DoNotContactEntry {
  const hasEmail = target.email !== undefined && target.email !== null;
  const hasDomain = target.domain !== undefined && target.domain !== null;
  if (hasEmail === hasDomain) {
    throw new ServiceError("validation_error", "give exactly one of email or domain");
  }
  if (hasEmail) {
    const value = normalizeEmail(target.email!);
    if (!value) throw new ServiceError("validation_error", EMAIL_MESSAGE);
    return { kind: "email", value };
  }
  const value = normalizeHost(target.domain!);
  if (!value) throw new ServiceError("validation_error", DOMAIN_MESSAGE);
  if (!parse(value).domain) throw new ServiceError("validation_error", PUBLIC_SUFFIX_MESSAGE);
  return { kind: "domain", value };
}

/**
 * The list values that refuse an address: `addresses` (the address, and without its `+tag`
 * when it has one, since `bob+news@acme.com` reaches `bob@acme.com`'s mailbox) and `domains`
 * (its domain and every parent domain with a dot: `a.mail.acme.com`, `mail.acme.com`,
 * `acme.com`). Lenient: the address is trimmed and lower-cased, and one that does not parse is
 * matched as written, with its domain as far as it reads as one.
 */
export function doNotContactKeys(email: string): { addresses: string[]; domains: string[] } {
  const raw = email.trim().toLowerCase();
  const at = raw.lastIndexOf("@");
  if (at < 0) return { addresses: raw ? [raw] : [], domains: [] };
  const local = raw.slice(0, at);
  const domain = normalizeHost(raw.slice(at + 1)) ?? raw.slice(at + 1).replace(/\.$/, "");
  const addresses = new Set([raw, `${local}@${domain}`]);
  const plus = local.indexOf("+");
  if (plus > 0) addresses.add(`${local.slice(0, plus)}@${domain}`);
  const labels = domain.split(".");
  const domains: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) {
    const parent = labels.slice(i).join(".");
    if (labels[i] !== "" && parent.length <= 254) domains.push(parent);
  }
  return { addresses: [...addresses], domains };
}
