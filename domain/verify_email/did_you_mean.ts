/**
 * `didYouMean`: the common mail domain an address's domain is most likely a typo of
 * (`gmial.com` → `gmail.com`), or null. Only ever suggested beside the verdict, never applied: the
 * address verified is the one submitted.
 *
 * A short list of the mail domains most addresses are at, and an edit distance that counts a
 * swap of two neighbouring letters as one edit (optimal string alignment), since a swap is the
 * commonest typo: one edit for a domain of up to 8 characters, two beyond. A domain with a common
 * domain's name under another ending (`hotmail.de`, `yahoo.es`, `live.ca`) is a real domain of the
 * same provider, so it is only corrected when its ending is no real one (`gmail.con`) or a cut-off
 * of the common one (`gmail.co`). The free-mail list cannot tell real domains from typos (it holds
 * `gmial.com` and `yaho.com`), so the few real domains one edit from a common one are named here.
 * Why not `mailcheck` (or its fork `@zootools/email-spell-checker`): tried, it suggested `me.com`
 * for `acme.com` and nothing for `yaho.com` (docs/decisions/0021-did-you-mean.md).
 */
import { parse } from "tldts";

/** Where most addresses are, most common first (a tie goes to the earlier one). */
export const COMMON_MAIL_DOMAINS: readonly string[] = [
  "gmail.com",
  "yahoo.com",
  "hotmail.com",
  "outlook.com",
  "icloud.com",
  "aol.com",
  "live.com",
  "msn.com",
  "me.com",
  "mac.com",
  "googlemail.com",
  "protonmail.com",
  "proton.me",
  "ymail.com",
  "gmx.com",
  "gmx.de",
  "gmx.net",
  "web.de",
  "t-online.de",
  "yandex.ru",
  "mail.ru",
  "qq.com",
  "163.com",
  "naver.com",
  "comcast.net",
  "verizon.net",
  "att.net",
  "sbcglobal.net",
  "bellsouth.net",
  "hotmail.co.uk",
  "yahoo.co.uk",
  "btinternet.com",
  "live.co.uk",
  "orange.fr",
  "free.fr",
  "laposte.net",
  "wanadoo.fr",
  "hotmail.fr",
  "yahoo.fr",
  "libero.it",
  "zoho.com",
  "fastmail.com",
];

const COMMON = new Set(COMMON_MAIL_DOMAINS);

/** Real mail domains within an edit of a common one (`mail.com` is no typo of `gmail.com`). */
const REAL_NEIGHBOURS: ReadonlySet<string> = new Set([
  "mail.com",
  "email.com",
  "mail.de",
  "inbox.com",
  "ya.ru",
  "bk.ru",
  "list.ru",
  "live.de",
  "live.fr",
  "live.it",
  "live.nl",
]);

function nameAndEnding(domain: string): { name: string; ending: string; real: boolean } {
  const parsed = parse(domain, { allowPrivateDomains: false });
  return {
    name: parsed.domainWithoutSuffix ?? domain,
    ending: parsed.publicSuffix ?? "",
    real: parsed.isIcann === true,
  };
}

/** Edits between `a` and `b`: insertions, deletions, substitutions, neighbouring swaps. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** The suggested domain for `domain` (lower case, no trailing dot), or null. */
export function didYouMean(domain: string): string | null {
  if (!domain || COMMON.has(domain) || REAL_NEIGHBOURS.has(domain)) return null;
  const own = nameAndEnding(domain);
  let best: { domain: string; distance: number } | null = null;
  for (const common of COMMON_MAIL_DOMAINS) {
    // Lengths further apart than the allowance can never be within it.
    const allowed = common.length > 8 ? 2 : 1;
    if (Math.abs(common.length - domain.length) > allowed) continue;
    const distance = editDistance(domain, common);
    if (distance > allowed || (best !== null && distance >= best.distance)) continue;
    const theirs = nameAndEnding(common);
    if (
      own.name === theirs.name && own.real && !theirs.ending.startsWith(own.ending)
    ) continue;
    best = { domain: common, distance };
  }
  return best?.domain ?? null;
}
