import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { MAX_LEDGER_PAGE, readLedgerLines } from "../../domain/billing/ledger_lines.ts";
import { ServiceError } from "../../domain/errors.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import { API_KEY_SECURITY, COMMON_ERROR_RESPONSES } from "../schemas.ts";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const LineSchema = z.object({
  id: z.number().int().openapi({ description: "The line's first posting; the paging cursor" }),
  kind: z.enum(["grant", "call", "run", "job", "reservation"]),
  operation: z.string().nullable(),
  at: z.string(),
  net: z.number().int().openapi({
    description:
      "Points in (+) or out (−) in the end: a run's or job's reservation counts only what was settled",
  }),
  units: z.number().int(),
  open: z.boolean(),
  stillReserved: z.number().int(),
  link: z.object({ type: z.enum(["run", "job"]), id: z.string() }).nullable(),
  steps: z.array(z.object({
    kind: z.enum(["reserve", "settle", "release"]),
    amount: z.number().int(),
    at: z.string(),
  })),
}).openapi("LedgerLine");

/** 1 to `MAX_LEDGER_PAGE` (200), as the document states it. */
const LIMIT = /^(?:[1-9]|[1-9]\d|1\d\d|200)$/;
/** A day as the document states it; a 31st of a shorter month rolls over, as `Date.parse` does. */
const DAY = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;

/** A `YYYY-MM-DD` day as the instant it starts (UTC); `next` for the day after. */
export function dayStart(value: string | undefined, field: string, next = false): Date | undefined {
  if (value === undefined || value === "") return undefined;
  if (!DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new ServiceError("validation_error", `${field} must be a date (YYYY-MM-DD)`);
  }
  const day = new Date(`${value}T00:00:00Z`);
  if (next) day.setUTCDate(day.getUTCDate() + 1);
  return day;
}

export function mountPointsLedger(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "get",
    path: "/api/v1/points/ledger",
    operationId: "getPointsLedger",
    tags: ["Account"],
    summary: "The ledger, one line per call, run or job",
    description:
      "Newest first. A lead-search run's or bulk job's reservation, settlements and release are one line whose `net` is what it cost in the end, with the postings under `steps`. Page with `cursor` (the previous answer's `nextCursor`); filter with `from` and `to` (UTC days, inclusive). Free; `account` budget.",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "account"),
    request: {
      query: z.object({
        cursor: z.string().regex(/^\d{1,18}$/, "cursor must be a nextCursor value").optional(),
        limit: z.string().regex(LIMIT, `limit must be 1 to ${MAX_LEDGER_PAGE}`).optional(),
        from: z.string().regex(DAY, "from must be a date (YYYY-MM-DD)").optional().openapi({
          description: "First day (YYYY-MM-DD, UTC)",
        }),
        to: z.string().regex(DAY, "to must be a date (YYYY-MM-DD)").optional().openapi({
          description: "Last day (YYYY-MM-DD, UTC)",
        }),
      }),
    },
    responses: {
      200: {
        description: "A page of lines",
        content: {
          "application/json": {
            schema: z.object({
              data: z.object({ lines: z.array(LineSchema), nextCursor: z.number().nullable() }),
            }),
          },
        },
      },
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const limit = query.limit === undefined ? undefined : Number(query.limit);
    if (limit !== undefined && (limit < 1 || limit > MAX_LEDGER_PAGE)) {
      throw new ServiceError("validation_error", `limit must be 1 to ${MAX_LEDGER_PAGE}`);
    }
    const data = await readLedgerLines(ctx, {
      workspaceId: c.get("auth").workspaceId,
      cursor: query.cursor === undefined ? undefined : Number(query.cursor),
      limit,
      from: dayStart(query.from, "from"),
      to: dayStart(query.to, "to", true),
    });
    return c.json({ data }, 200);
  });
}
