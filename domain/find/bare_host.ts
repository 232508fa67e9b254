import { parse } from "tldts";

/**
 * find's `email` mode: a company domain or website URL reduced to its bare host
 * (`https://www.Acme.com/about` → `acme.com`; an internationalised name in its ASCII form), or
 * null when it names no host that can receive mail (an IP address, a single label, a string that
 * is no host name).
 */
export function bareHost(companyField: string): string | null {
  const text = companyField.trim().replace(/^mailto:/i, "").replace(/^[^@/]*@/, "");
  if (!text || /\s/.test(text)) return null;
  const parsed = parse(text.includes("://") ? text : `http://${text}`);
  const host = asciiHost(parsed.hostname?.toLowerCase().replace(/\.$/, ""));
  if (!host || parsed.isIp || !host.includes(".") || !parsed.domain) return null;
  return host.startsWith("www.") ? host.slice(4) : host;
}

/**
 * An internationalised host in its ASCII form, as DNS and SMTP take it (münchen.de →
 * xn--mnchen-3ya.de).
 */
function asciiHost(host: string | null | undefined): string | null {
  if (!host) return null;
  if (!/\P{ASCII}/u.test(host)) return host;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
}
