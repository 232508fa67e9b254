import type { OpenAPIHono } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { findWorkEmail } from "../../domain/find/find_work_email.ts";
import type { AppEnv } from "../app_env.ts";
import { billedRoute } from "../billed_route.ts";
import { FindAnswerSchema, FindBodySchema, toFindInput } from "./find_schemas.ts";

export function mountFind(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = billedRoute(ctx, {
    path: "/api/v1/find",
    operationId: "find",
    tags: ["Lookups"],
    summary: "Find a verified work email",
    description:
      "By name + company domain (`email`), name + company name (`company`: our directory, then Wikidata), or profile URL (`network`: our directory). A free-mail or disposable domain (`free-mail-domain`, `disposable-domain`) and a domain or person on the workspace's do-not-contact list (`do-not-contact`) are refused before any DNS or SMTP traffic. A shared role mailbox (info@, sales@, jobs@ …) is never a person's address. The service's own records answer when they hold an address verified recently; otherwise candidates are verified over DNS + SMTP (one SMTP session per domain). Every outcome is a 200: inspect `found`, `reason`, `charged`, `replay`. A workspace that cannot pay the worst case (both parts in company mode) is refused before any work with `reason` `insufficient-credits`.",
    budget: "find",
    cost: [
      { price: "findEmail", per: "completed email lookup (found, not-found or catch-all)" },
      { price: "findCompany", per: "company-name lookup (company mode, resolved or not)" },
    ],
    idempotencyKey: "optional",
    body: FindBodySchema,
    answer: { schema: FindAnswerSchema, description: "The lookup's outcome" },
  });
  app.openapi(route, async (c) => {
    const find = toFindInput(c.req.valid("json"));
    const data = await findWorkEmail(ctx, {
      workspaceId: c.get("auth").workspaceId,
      idempotencyKey: c.req.valid("header")["idempotency-key"],
      find,
    });
    return c.json({ data }, 200);
  });
}
