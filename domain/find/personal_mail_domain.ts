/**
 * Why a mail domain can hold no work email: a free mailbox provider anyone can sign up to
 * (`free-mail-domain`: gmail.com, yahoo.co.uk …) or a throwaway-address service
 * (`disposable-domain`: mailinator.com …), from the same lists enrich's `address.kind` reads
 * (`domain/shared/email_domain_kind.ts`; subdomains count as their registrable domain). A pattern guess there
 * would be someone else's personal mailbox, so find refuses such a domain before any DNS or SMTP
 * traffic. Null for any other domain.
 */
import { emailDomainKind } from "../shared/email_domain_kind.ts";

export type PersonalMailReason = "free-mail-domain" | "disposable-domain";

export function personalMailDomain(domain: string): PersonalMailReason | null {
  switch (emailDomainKind(domain)) {
    case "free":
      return "free-mail-domain";
    case "disposable":
      return "disposable-domain";
    case "work":
      return null;
  }
}
