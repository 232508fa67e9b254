/**
 * What each billed API route says it charges, read from the OpenAPI document's `x-cost` (each
 * route declares `cost: [{ price, per }]` beside its definition, routes/billed_route.ts), so the
 * prices page and the document word every price the same way and a new billed route appears on
 * the page without a second list to keep in sync.
 * The document is the API app's own (routes/app.ts hands the web app its `openApiDocument`).
 */
import type { PriceTable } from "../../domain/config/config.ts";

export interface PublishedCost {
  price: keyof PriceTable;
  /** What one charge pays for, in the route's words: "answered name", "delivered lead (…)". */
  per: string;
  method: string;
  path: string;
  summary: string;
}

const published = new WeakMap<Record<string, unknown>, PublishedCost[]>();

export function publishedCosts(document: Record<string, unknown>): PublishedCost[] {
  let costs = published.get(document);
  if (!costs) {
    costs = readCosts(document);
    published.set(document, costs);
  }
  return costs;
}

type Operation = { summary?: string; "x-cost"?: { priceName: keyof PriceTable; per: string }[] };

function readCosts(document: Record<string, unknown>): PublishedCost[] {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const costs: PublishedCost[] = [];
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      for (const cost of operation["x-cost"] ?? []) {
        costs.push({
          price: cost.priceName,
          per: cost.per,
          method: method.toUpperCase(),
          path,
          summary: operation.summary ?? "",
        });
      }
    }
  }
  return costs;
}
