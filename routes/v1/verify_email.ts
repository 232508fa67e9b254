import type { OpenAPIHono } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { verifyEmail } from "../../domain/verify_email/verify_email.ts";
import type { AppEnv } from "../app_env.ts";
import { billedRoute } from "../billed_route.ts";
import { VerifyAnswerSchema, VerifyBodySchema } from "./verify_email_schemas.ts";

export function mountVerifyEmail(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = billedRoute(ctx, {
    path: "/api/v1/verify",
    operationId: "verifyEmail",
    tags: ["Lookups"],
    summary: "Verify an email address",
    description:
      "One address to a verdict with the engine find uses (DNS, then an SMTP session that stops after RCPT: a random catch-all probe and the address; one retry after greylisting; per-host session limits; the remote verifier where port 25 is closed). Beside the verdict: the checks (`syntax`, `disposable`, `role`, `freeMail`, `didYouMean`), the domain's mail setup and the deciding SMTP reply. A verdict (`valid`, `invalid`, `catch-all`) is billed, also when the verification cache window answers it (`cached: true`); `invalid-syntax` and every `unknown` are free. Every outcome is a 200: inspect `status`, `reason`, `charged`, `replay`. A list: a bulk job with `operation` `verify`.",
    budget: "find",
    cost: [{ price: "verify", per: "address verified to a verdict (valid, invalid or catch-all)" }],
    idempotencyKey: "optional",
    body: VerifyBodySchema,
    answer: { schema: VerifyAnswerSchema, description: "The verdict, the checks, the evidence" },
  });
  app.openapi(route, async (c) => {
    const data = await verifyEmail(ctx, {
      workspaceId: c.get("auth").workspaceId,
      idempotencyKey: c.req.valid("header")["idempotency-key"],
      email: c.req.valid("json").email,
    });
    return c.json({ data }, 200);
  });
}
