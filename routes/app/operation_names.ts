/**
 * How the pages call each operation: the price table's names (the ledger's `operation` column
 * holds a price's name for a single call) and the names the ledger gives the lines of a bulk job
 * (`bulk-find`, `bulk-enrich`, `bulk-verify`). The price names are a `Record` over the price table, so a new
 * price cannot go unnamed here; a line whose name this version does not know is shown readably
 * rather than as an id.
 */
import type { PriceTable } from "../../domain/config/config.ts";

export const OPERATION_NAMES: Record<keyof PriceTable, string> = {
  nameParse: "Name parse",
  findEmail: "Find email",
  findCompany: "Find company",
  networkSearch: "Network search",
  enrich: "Enrich email",
  lead: "Lead search",
  verify: "Verify email",
  domainSearch: "Domain search",
};

/** Ledger operations that are not prices: what a bulk job's reservation and settlements say. */
export const LEDGER_OPERATION_NAMES: Record<string, string> = {
  "bulk-find": "Bulk find",
  "bulk-enrich": "Bulk enrich",
  "bulk-verify": "Bulk verify",
};

/** The price names in the price table's order (the order of every list and legend). */
export const OPERATIONS = Object.keys(OPERATION_NAMES) as (keyof PriceTable)[];

export function isOperation(name: string): name is keyof PriceTable {
  return Object.hasOwn(OPERATION_NAMES, name);
}

/**
 * A readable name. One this version does not know (an older posting, or a price added since) is
 * spelled out from its id: `domainSearch` reads "Domain search".
 */
export function operationName(operation: string | null): string {
  if (operation === null) return "—";
  if (isOperation(operation)) return OPERATION_NAMES[operation];
  if (Object.hasOwn(LEDGER_OPERATION_NAMES, operation)) return LEDGER_OPERATION_NAMES[operation];
  return spelledOut(operation);
}

function spelledOut(id: string): string {
  const words = id.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[-_\s]+/).filter(Boolean)
    .map((word) => word.toLowerCase());
  if (words.length === 0) return id;
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
