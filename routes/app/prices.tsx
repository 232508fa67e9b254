/**
 * `/app/prices`: the live price table, the one the ledger charges and `GET /api/v1/points` and the
 * OpenAPI document publish (`ctx.prices`), with what each price is charged per in the words the
 * API routes declare (their `x-cost`), and what is never charged (spec §4.10, §7).
 */
import type { Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import { Page, points } from "./layout.tsx";
import { memberPage } from "./member_pages.ts";
import type { WebEnv } from "./web_env.ts";
import { OPERATION_NAMES, OPERATIONS } from "./operation_names.ts";
import { publishedCosts } from "./published_costs.ts";

export function mountPrices(
  web: Hono<WebEnv>,
  ctx: DomainContext,
  openApiDocument: () => Record<string, unknown>,
): void {
  web.get("/prices", memberPage(ctx), (c) => {
    const costs = publishedCosts(openApiDocument());
    return c.html(
      <Page title="Prices" section="prices" member={c.get("member")}>
        <p class="muted prices-intro">
          Points per billable unit, the same for the API and this app’s{" "}
          <a href="/app/tools">tools</a> and{" "}
          <a href="/app/lead-search">lead search</a>. The API publishes them too:{" "}
          <code>GET /api/v1/points</code> and each operation’s <code>x-cost</code> in the{" "}
          <a href="/docs">API reference</a>.
        </p>
        <div class="table-wrap">
          <table class="card-rows prices-table">
            <thead>
              <tr>
                <th>Operation</th>
                <th>Charged per</th>
                <th class="num">Points</th>
              </tr>
            </thead>
            <tbody>
              {OPERATIONS.map((price) => {
                const ways = costs.filter((cost) => cost.price === price);
                return (
                  <tr data-price={price}>
                    <td class="prices-name card-title">{OPERATION_NAMES[price]}</td>
                    <td>
                      {ways.length === 0 ? <span class="muted">—</span> : (
                        <ul class="prices-per">
                          {ways.map((way) => (
                            <li>
                              {way.per}
                              <span class="prices-route mono">{way.method} {way.path}</span>
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td class="num prices-points card-corner">
                      <strong>{points(ctx.prices[price])}</strong>{" "}
                      <span class="muted">{ctx.prices[price] === 1 ? "point" : "points"}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>

        <section class="panel prices-free" aria-labelledby="never-charged">
          <h2 id="never-charged">Never charged</h2>
          <ul>
            <li>
              <strong>Refusals:</strong>{" "}
              a request that does not validate, a name that does not split, an address on your
              do-not-contact list, a profile URL nobody knows.
            </li>
            <li>
              <strong>Provider errors:</strong>{" "}
              a mail server, search provider or source that could not answer (<code>
                verification-unavailable
              </code>, <code>search-unavailable</code>, a source that timed out).
            </li>
            <li>
              <strong>Replays:</strong> a request repeated with the same{" "}
              <code>Idempotency-Key</code> answers again for free (the tools’ forms use one too).
            </li>
            <li>
              <strong>Failed calls:</strong>{" "}
              answers with status 429 (rate limited), 402 (not enough points), 500 or{" "}
              <code>503 incomplete</code>.
            </li>
            <li>
              <strong>Lead search:</strong>{" "}
              leads an earlier run already delivered, polling a run, cancelling one. The worst case
              is reserved at the start; what is not delivered is given back.
            </li>
            <li>
              <strong>Reading:</strong> the balance, the ledger, the price table, this app’s pages.
            </li>
          </ul>
        </section>
      </Page>,
    );
  });
}
