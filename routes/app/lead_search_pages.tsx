import type { Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import type { WebEnv } from "./web_env.ts";

/** Placeholder: being built. */
export function mountLeadSearchPages(_web: Hono<WebEnv>, _ctx: DomainContext): void {}
