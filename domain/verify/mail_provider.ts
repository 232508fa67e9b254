/**
 * Who runs a domain's mail, read from its MX host names: the suffixes the large providers and
 * mail gateways publish for their customers' MX records. The evidence carries it because what a
 * verification can say depends on it (docs/api.md, "Who runs the mail"): Google and Microsoft 365
 * answer RCPT per mailbox; gateways such as Proofpoint, Mimecast and Barracuda often accept every
 * recipient at RCPT (the catch-all probe then says so) and some bounce later.
 *
 * Matching is on whole labels at the end of the host name (`*.pphosted.com`), lower case, without
 * the trailing dot. Anything not listed is `other`.
 */

import type { MailProvider } from "../ports.ts";

export type { MailProvider } from "../ports.ts";

export const MAIL_PROVIDERS = [
  "google",
  "microsoft",
  "proofpoint",
  "mimecast",
  "barracuda",
  "cisco",
  "trendmicro",
  "sophos",
  "forcepoint",
  "yahoo",
  "zoho",
  "fastmail",
  "apple",
  "proton",
  "yandex",
  "amazon",
  "other",
] as const satisfies readonly MailProvider[];

// Every provider the port's type names is in the list (and, by `satisfies`, nothing else is).
const _EVERY_PROVIDER_LISTED: Exclude<MailProvider, typeof MAIL_PROVIDERS[number]> extends never
  ? true
  : never = true;

/** MX host suffixes (whole labels) → provider; the first match wins. */
const SUFFIXES: ReadonlyArray<readonly [string, MailProvider]> = [
  // Google Workspace: aspmx.l.google.com, alt1.aspmx.l.google.com, smtp.google.com.
  ["google.com", "google"],
  ["googlemail.com", "google"],
  // Microsoft 365 / Exchange Online Protection: acme-com.mail.protection.outlook.com.
  ["mail.protection.outlook.com", "microsoft"],
  ["outlook.com", "microsoft"],
  ["hotmail.com", "microsoft"],
  ["eo.outlook.com", "microsoft"],
  // Proofpoint: mx0a-001234.pphosted.com; Proofpoint Essentials: mx1-us1.ppe-hosted.com.
  ["pphosted.com", "proofpoint"],
  ["ppe-hosted.com", "proofpoint"],
  // Mimecast: us-smtp-inbound-1.mimecast.com, eu-smtp-inbound-1.mimecast.com.
  ["mimecast.com", "mimecast"],
  ["mimecast-offshore.com", "mimecast"],
  ["mimecast.co.za", "mimecast"],
  // Barracuda Email Security: d12345a.ess.barracudanetworks.com.
  ["barracudanetworks.com", "barracuda"],
  // Cisco Secure Email (IronPort) cloud: mx1.hc1234-56.iphmx.com.
  ["iphmx.com", "cisco"],
  // Trend Micro Email Security: acme.in.tmes.trendmicro.com.
  ["tmes.trendmicro.com", "trendmicro"],
  ["tmes.trendmicro.eu", "trendmicro"],
  // Sophos Central Email: mx-01-us-west-2.prod.hydra.sophos.com.
  ["hydra.sophos.com", "sophos"],
  // Forcepoint cloud email: cust12345-1.in.mailcontrol.com.
  ["mailcontrol.com", "forcepoint"],
  // Yahoo: mta5.am0.yahoodns.net.
  ["yahoodns.net", "yahoo"],
  // Zoho Mail: mx.zoho.com, mx.zoho.eu.
  ["zoho.com", "zoho"],
  ["zoho.eu", "zoho"],
  ["zohomail.com", "zoho"],
  // Fastmail: in1-smtp.messagingengine.com.
  ["messagingengine.com", "fastmail"],
  // iCloud custom domains: mx01.mail.icloud.com.
  ["mail.icloud.com", "apple"],
  // Proton Mail: mail.protonmail.ch, mailsec.protonmail.ch.
  ["protonmail.ch", "proton"],
  // Yandex 360: mx.yandex.net.
  ["yandex.net", "yandex"],
  ["yandex.ru", "yandex"],
  // Amazon SES / WorkMail inbound: inbound-smtp.us-east-1.amazonaws.com.
  ["amazonaws.com", "amazon"],
];

/** The provider that runs an MX host, from its name; `other` when the table has none. */
export function mailProviderOf(mxHost: string): MailProvider {
  const host = mxHost.trim().toLowerCase().replace(/\.$/, "");
  for (const [suffix, provider] of SUFFIXES) {
    if (host === suffix || host.endsWith(`.${suffix}`)) return provider;
  }
  return "other";
}
