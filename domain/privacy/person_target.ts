/**
 * Whom a privacy request names: one address, one profile URL, or a name at a company domain, in
 * the directory's normal forms. Throws `validation_error` (never repeating the value) unless
 * exactly one of them is given and it reads. Pure.
 */
import { ServiceError } from "../errors.ts";
import { normalizeEmail } from "../do_not_contact/do_not_contact_entry.ts";
import { companyDomainOf, foldName, normalizeNetworkUrl } from "../directory/normalize.ts";
import type { ProfileNetwork } from "../shared/profile_network.ts";

export interface PersonTargetInput {
  email?: string;
  profile?: string;
  name?: string;
  domain?: string;
}

export type PersonTarget =
  | { kind: "email"; email: string }
  | { kind: "profile"; url: string }
  | { kind: "name"; name: string; folded: string; domain: string };

export function readPersonTarget(input: PersonTargetInput, network: ProfileNetwork): PersonTarget {
  const given = [input.email, input.profile, input.name].filter((v) => v !== undefined).length;
  if (given !== 1 || (input.domain !== undefined) !== (input.name !== undefined)) {
    throw new ServiceError(
      "validation_error",
      "give exactly one of: an email, a profile URL, or a name with a company domain",
    );
  }
  if (input.email !== undefined) {
    const email = normalizeEmail(input.email);
    if (!email) throw new ServiceError("validation_error", "email must be one address");
    return { kind: "email", email };
  }
  if (input.profile !== undefined) {
    const url = normalizeNetworkUrl(input.profile, network);
    if (!url) throw new ServiceError("validation_error", "profile must be an http(s) URL");
    return { kind: "profile", url };
  }
  const name = input.name!.trim();
  const folded = foldName(name);
  const domain = companyDomainOf(input.domain!);
  if (!folded) throw new ServiceError("validation_error", "name must not be blank");
  if (!domain) throw new ServiceError("validation_error", "domain must be a company's domain");
  return { kind: "name", name, folded, domain };
}
