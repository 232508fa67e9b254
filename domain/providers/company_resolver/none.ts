/**
 * The company resolver for `COMPANY_RESOLVER=none`: no outside lookup, every name is not found
 * (find's `company` mode then answers as for an unknown company, never as a provider failure).
 */
import type { CompanyResolution, CompanyResolver } from "./port.ts";

export const noCompanyResolver: CompanyResolver = {
  resolve(_companyName: string): Promise<CompanyResolution> {
    return Promise.resolve({ kind: "not-found" });
  },
};
