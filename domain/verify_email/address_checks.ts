/**
 * The checks of an address that need no DNS or SMTP: its syntax, and whether its domain is
 * disposable or a free mailbox provider (the lists enrich and find already read,
 * `domain/shared/email_domain_kind.ts`), whether it is a role mailbox (`role_mailbox.ts`, find's
 * list), and the common domain it may be a typo of (`did_you_mean.ts`).
 */
import { normalizeEmail } from "../do_not_contact/do_not_contact_entry.ts";
import { isRoleMailbox } from "../find/role_mailbox.ts";
import { emailDomainKind } from "../shared/email_domain_kind.ts";
import { didYouMean } from "./did_you_mean.ts";
import type { AddressChecks } from "./verify_answer.ts";

export interface CheckedAddress {
  /** The normalised address, or the trimmed input when it is no address. */
  email: string;
  /** Its domain (empty when the input is no address). */
  domain: string;
  checks: AddressChecks;
}

export function checkAddress(input: string): CheckedAddress {
  const email = normalizeEmail(input);
  if (!email) {
    return {
      email: input.trim(),
      domain: "",
      checks: { syntax: false, disposable: false, role: false, freeMail: false, didYouMean: null },
    };
  }
  const at = email.lastIndexOf("@");
  const domain = email.slice(at + 1);
  const kind = emailDomainKind(domain);
  const suggested = didYouMean(domain);
  return {
    email,
    domain,
    checks: {
      syntax: true,
      disposable: kind === "disposable",
      role: isRoleMailbox(email),
      freeMail: kind === "free",
      didYouMean: suggested ? `${email.slice(0, at)}@${suggested}` : null,
    },
  };
}
