/**
 * The words the directory files a person under, shared by lead search's and domain search's
 * filters and answers.
 *
 * - `seniority` is stored as imported; these are the levels the demo directory uses and lead
 *   search documents (`entry` … `cxo`, and `owner` for founders).
 * - `department` is not imported: the database reads it from the title (migration
 *   `022_domain_search.sql`, first matching rule wins), so every writer of a title gets it. The
 *   departments are the demo directory's functions, plus `executive` for founders and chief
 *   executives.
 */
export const SENIORITIES = [
  "entry",
  "senior",
  "manager",
  "director",
  "vp",
  "cxo",
  "owner",
] as const;
export type Seniority = typeof SENIORITIES[number];

export const DEPARTMENTS = [
  "engineering",
  "data",
  "product",
  "design",
  "sales",
  "marketing",
  "finance",
  "operations",
  "people",
  "legal",
  "customer-success",
  "executive",
] as const;
export type Department = typeof DEPARTMENTS[number];
