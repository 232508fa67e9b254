/**
 * The Bulk pages (`/app/bulk…`): the list form with its quote and the past jobs, and one job's
 * page with live progress, cancel and the results download. Each lives in `bulk/`.
 */
import type { Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import type { WebEnv } from "./web_env.ts";
import { mountBulkPage } from "./bulk/bulk_page.tsx";
import { mountJobPage } from "./bulk/job_page.tsx";

export function mountBulkPages(web: Hono<WebEnv>, ctx: DomainContext): void {
  mountBulkPage(web, ctx);
  mountJobPage(web, ctx);
}
