/** `/app/tools`: the tools, what each does, and its price from the live price table. */
import type { Hono } from "hono";
import type { DomainContext } from "../../../domain/context.ts";

import { Page, points } from "../layout.tsx";
import { memberPage } from "../member_pages.ts";
import type { WebEnv } from "../web_env.ts";
import { ENRICH_PATH } from "./enrich_tool.tsx";
import { FIND_PATH } from "./find_tool.tsx";
import { NAME_PARSE_PATH } from "./name_parse_tool.tsx";
import { NETWORK_SEARCH_PATH } from "./network_search_tool.tsx";
import { VERIFY_PATH } from "./verify_tool.tsx";
import { readWorkspaceBalance } from "../../../domain/billing/read_workspace_balance.ts";

const per = (price: number, unit: string) =>
  `${points(price)} point${price === 1 ? "" : "s"} ${unit}`;

export function mountToolsIndex(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/tools", memberPage(ctx), async (c) => {
    const member = c.get("member");
    const balance = await readWorkspaceBalance(ctx, { workspaceId: member.workspaceId });
    const { prices } = ctx;
    const tools = [
      {
        href: NAME_PARSE_PATH,
        title: "Name parse",
        what:
          "Split a full name, or a pasted list of names, into given name and surname; download a list as CSV.",
        price: per(prices.nameParse, "per name"),
      },
      {
        href: FIND_PATH,
        title: "Find email",
        what:
          "A verified work email from a name and a company domain, a company name, or a profile URL.",
        price: `${per(prices.findEmail, "per lookup")}, ${
          points(prices.findCompany)
        } more by company name`,
      },
      {
        href: NETWORK_SEARCH_PATH,
        title: "Network search",
        what: "A person’s public professional-network profile from their name and employer.",
        price: per(prices.networkSearch, "per search"),
      },
      {
        href: ENRICH_PATH,
        title: "Enrich email",
        what:
          "The person behind an email address: name, title, company, profiles, and who said so.",
        price: per(prices.enrich, "per address"),
      },
      {
        href: VERIFY_PATH,
        title: "Verify email",
        what:
          "Whether an address can receive mail, before you send to it: a verdict, the checks (disposable, role, free mail, a likely typo) and the mail server's reply.",
        price: per(prices.verify, "per verdict"),
      },
    ];
    return c.html(
      <Page title="Tools" section="tools" member={member}>
        <p class="muted tool-intro">
          The API’s lookups, by hand. Each is billed exactly like the API call and shows what it
          cost; you have <strong>{points(balance.available)}</strong> points available.
        </p>
        <ul class="tool-grid">
          {tools.map((tool) => (
            <li class="panel tool-card">
              <h2>
                <a href={tool.href}>{tool.title}</a>
              </h2>
              <p>{tool.what}</p>
              <p class="tool-price">{tool.price}</p>
            </li>
          ))}
        </ul>
      </Page>,
    );
  });
}
