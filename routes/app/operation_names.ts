/**
 * How the pages call each price-table operation (the ledger's `operation` column holds the
 * price's name). A `Record` over the price table, so a new price cannot go unnamed here.
 */
import type { PriceTable } from "../../domain/config/config.ts";

export const OPERATION_NAMES: Record<keyof PriceTable, string> = {
  nameParse: "Name parse",
  findEmail: "Find email",
  findCompany: "Find company",
  networkSearch: "Network search",
  enrich: "Enrich email",
  lead: "Lead search",
  domainSearch: "Domain search",
};

/** The price names in the price table's order (the order of every list and legend). */
export const OPERATIONS = Object.keys(OPERATION_NAMES) as (keyof PriceTable)[];

export function isOperation(name: string): name is keyof PriceTable {
  return Object.hasOwn(OPERATION_NAMES, name);
}

/** A readable name; a name this version does not know (an older posting) is shown as stored. */
export function operationName(operation: string | null): string {
  if (operation === null) return "—";
  return isOperation(operation) ? OPERATION_NAMES[operation] : operation;
}
