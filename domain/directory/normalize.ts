/**
 * The directory's normal forms: the keys people and companies are stored and looked up under.
 * Every lookup and every write goes through these, so a name, domain or profile URL written any
 * way a caller writes it reaches the same record. Pure functions, no I/O.
 */
import { parse } from "tldts";
import { foldSpelling } from "../name_parse/fold_spelling.ts";
import { canonicalProfileUrl, linkUrl, type ProfileNetwork } from "../shared/profile_network.ts";

/** Lower case, diacritics removed (`José Łukasz Müller` → `jose lukasz muller`), whitespace collapsed. */
export function foldName(s: string): string {
  // The same folding as name parse's `spelling: folded` (one table of letters that do not
  // decompose), on the compatibility form so full-width and ligature letters fold too.
  const folded = /^[ -~]*$/.test(s) ? s.toLowerCase() : foldSpelling(s.normalize("NFKC"));
  return folded.replace(/\s+/gu, " ").trim();
}

/**
 * Legal-form words left out of a company's normal name (dots are removed first, so `S.A.`,
 * `B.V.`, `Co.` and `L.L.C.` are `sa`, `bv`, `co`, `llc`).
 */
const LEGAL_SUFFIXES = new Set([
  "inc",
  "incorporated",
  "llc",
  "llp",
  "lp",
  "ltd",
  "ltda",
  "limited",
  "gmbh",
  "mbh",
  "ag",
  "kg",
  "se",
  "sa",
  "sl",
  "bv",
  "nv",
  "plc",
  "corp",
  "corporation",
  "co",
  "company",
  "sas",
  "sarl",
  "oy",
  "oyj",
  "ab",
  "as",
  "asa",
  "aps",
  "kk",
  "pty",
  "pte",
  "pvt",
  "spa",
  "srl",
  "bhd",
  "sdn",
  "lda",
  "dac",
  "kft",
  "zrt",
  "nyrt",
]);
/** Legal forms of several words (`Sp. z o.o.` reads `sp z oo`). */
const LEGAL_SUFFIX_PHRASES = [["sp", "z", "oo"]];
/** Legal forms that are also written before the name (`AB Volvo`, `Oy Hartwall`). */
const LEGAL_PREFIXES = new Set(["ab", "oy", "oyj"]);

/**
 * A company name's lookup key: folded like a person's name, apostrophes and dots dropped, other
 * punctuation and `&`/`and` as word breaks, and legal forms (`Inc.`, `GmbH`, `S.A.`, `Co., Ltd.`)
 * and a leading `The` left out: `The Acme Company, Inc.` and `ACME` share the key `acme`.
 * A name made only of such words keeps them (`Company` → `company`); empty only when the name
 * has no letter or digit.
 */
export function normalizeCompanyName(name: string): string {
  const all = foldName(name)
    .replace(/['’`.]/gu, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .split(" ")
    .filter(Boolean);
  const filtered = all.filter((word) => word !== "and");
  const words = filtered.length ? filtered : all;
  let end = words.length;
  for (let stripped = true; stripped;) {
    stripped = false;
    if (end > 1 && LEGAL_SUFFIXES.has(words[end - 1])) {
      end--;
      stripped = true;
    }
    for (const phrase of LEGAL_SUFFIX_PHRASES) {
      const start = end - phrase.length;
      if (start >= 1 && phrase.every((word, i) => words[start + i] === word)) {
        end = start;
        stripped = true;
      }
    }
  }
  let start = 0;
  while (end - start > 1 && (LEGAL_PREFIXES.has(words[start]) || words[start] === "the")) start++;
  return words.slice(start, end).join(" ");
}

/**
 * The registrable domain of a URL, host, email address or email domain, in lower-case ASCII
 * (`https://www.bbc.co.uk/news` → `bbc.co.uk`, `bob@mail.acme.com` → `acme.com`,
 * `bücher.example` → `xn--bcher-kva.example`); null for an IP address, a bare name
 * (`localhost`) or anything that is not a host.
 */
export function companyDomainOf(urlOrHost: string): string | null {
  let input = urlOrHost.trim();
  if (!input) return null;
  if (!input.includes("://") && input.includes("@")) {
    input = input.slice(input.lastIndexOf("@") + 1);
  }
  const parsed = parse(input);
  if (parsed.isIp || !parsed.domain) return null;
  let domain = parsed.domain.toLowerCase().replace(/\.$/, "");
  if (/\P{ASCII}/u.test(domain)) {
    try {
      domain = new URL(`http://${domain}`).hostname;
    } catch {
      return null;
    }
  }
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain) ? domain : null;
}

/**
 * A profile URL's key. A profile page of the configured network (`network`, when given) gets its
 * canonical form (`canonicalProfileUrl`: `HTTP://uk.LinkedIn.com/in/Ada-L/en/?trk=x` →
 * `https://linkedin.com/in/ada-l`); any other URL: https, lower case, host without `www.`, no
 * credentials, port, query, fragment or trailing slash. A URL without a scheme is read as https.
 * Null when it is not an http(s) URL with a host name.
 */
export function normalizeNetworkUrl(url: string, network?: ProfileNetwork): string | null {
  const profile = network ? canonicalProfileUrl(url, network) : null;
  if (profile) return profile;
  const parsed = linkUrl(url);
  if (!parsed) return null;
  const host = parsed.hostname.toLowerCase().replace(/^www\./, "").replace(/\.$/, "");
  if (!host.includes(".") || host.startsWith("[") || /^[\d.]+$/.test(host)) return null;
  const path = parsed.pathname.replace(/\/+$/, "").toLowerCase();
  return `https://${host}${path}`;
}
