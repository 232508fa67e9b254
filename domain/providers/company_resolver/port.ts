/**
 * Company name → official web domain, from an outside source (Wikidata), used by find's
 * `company` mode when the directory does not know the company. A provider failure is a value.
 */
export type CompanyResolution =
  | { kind: "resolved"; name: string; domain: string; source: string }
  | { kind: "not-found" }
  | { kind: "unavailable"; message: string };

export interface CompanyResolver {
  resolve(companyName: string): Promise<CompanyResolution>;
}
