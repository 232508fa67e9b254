/**
 * The web app's pages and forms, signed in, sent values put together at random (blanks, over-long
 * text, NUL, lone surrogates, dates out of range, made-up and impossible run and key ids, fields
 * repeated): every answer is a page, a redirect or a refusal, never a 500. Seeded, so a failure
 * names its request. Outside services are offline (every provider answers that it is unavailable).
 * FUZZ_SEED and FUZZ_ROUNDS (default 20261126 and 600) run other requests, for a longer search.
 */
import assert from "node:assert/strict";
import { mulberry32 } from "../domain/shared/mulberry32.ts";
import { createTestEnv, createTestWorkspace, DB_TEST, UNLIMITED_RATE_LIMITS } from "./harness.ts";
import { signedInMember } from "./web_client.ts";

const VALUES = [
  "",
  " ",
  "Jane Roe",
  "x".repeat(3000),
  "\u0000",
  "a\u0000b",
  "\ud800",
  "😀",
  "jane@example.com",
  "a@b",
  "https://network.example/in/jane",
  "example.com",
  "<script>",
  "Acme Inc.",
  "王小明",
  "2999-12-31",
  "9999-99-99",
  "-1",
  "0",
  "100000",
  "1e9",
  "email",
  "network",
  "folded",
  "51-200",
  "Jane Roe\nAnn Lee",
];
/** Every field name the app's forms use, and the lead-search criteria. */
const FIELDS = [
  "company",
  "confirmation",
  "count",
  "email",
  "entry",
  "expiresOn",
  "firstName",
  "format",
  "headcount",
  "idempotencyKey",
  "kind",
  "lastName",
  "mode",
  "name",
  "names",
  "networkUrl",
  "next",
  "noscript",
  "password",
  "spelling",
  "value",
  "token",
  "jobTitle",
  "location",
  "industry",
  "seniority",
  "keywords",
  "department",
  "title",
  "cursor",
];
const IDS = ["x", "run_0a1b2c3d4e5f60718293", "run_%00", "%ED%A0%80", "%", "key_%00"];
const POSTS = [
  "/app/bulk",
  "/app/bulk/jobs",
  "/app/bulk/jobs/ID/cancel",
  "/app/settings/webhooks/ID/delete",
  "/app/settings/webhooks/deliveries/ID/send-again",
  "/app/do-not-contact",
  "/app/do-not-contact/remove",
  "/app/lead-search",
  "/app/lead-search/runs/ID/cancel",
  "/app/lead-search/runs/ID/continue",
  "/app/password",
  "/app/settings/api-keys",
  "/app/settings/api-keys/ID/revoke",
  "/app/tools/find",
  "/app/tools/name-parse",
  "/app/tools/name-parse/list",
  "/app/tools/network-search",
  "/app/tools/enrich",
  "/app/domain-search",
  "/app/domain-search/find-the-rest",
  "/privacy/opt-out",
  "/privacy/opt-out/confirm",
];
const GETS = [
  "/app",
  "/app/bulk",
  "/app/bulk/jobs/ID",
  "/app/bulk/jobs/ID/progress",
  "/app/bulk/jobs/ID/results.csv",
  "/app/ledger?cursor=ID",
  "/app/ledger.csv?from=ID",
  "/app/settings/webhooks",
  "/app/do-not-contact",
  "/app/lead-search",
  "/app/lead-search/runs/ID",
  "/app/lead-search/runs/ID/leads.csv",
  "/app/lead-search/runs/ID/progress",
  "/app/lead-search/runs/ID?page=0",
  "/app/prices",
  "/app/settings/api-keys",
  "/app/settings/api-keys/ID/revoke",
  "/app/tools/find?mode=network&networkUrl=%00",
  "/app/tools/name-parse",
  "/app/tools/network-search",
  "/app/domain-search",
  "/app/settings/audit-log?cursor=ID",
  "/privacy/opt-out/confirm?token=ID",
];

Deno.test(
  "web fuzz: random form values on every page are answered, never 500",
  DB_TEST,
  async () => {
    const env = await createTestEnv({ config: { rateLimits: UNLIMITED_RATE_LIMITS } });
    try {
      const ws = await createTestWorkspace(env, 1_000_000);
      const member = await signedInMember(env, ws.workspaceId);
      const next = mulberry32(Number(Deno.env.get("FUZZ_SEED") ?? 20261126));
      const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
      const faults: string[] = [];
      const statuses = new Set<number>();
      const rounds = Number(Deno.env.get("FUZZ_ROUNDS") ?? 600);
      for (let i = 0; i < rounds; i++) {
        let request: string;
        let status: number;
        if (next() < 0.3) {
          request = `GET ${pick(GETS).replace("ID", pick(IDS))}`;
          status = (await member.get(request.slice(4))).status;
        } else {
          const path = pick(POSTS).replace("ID", pick(IDS));
          const fields: Record<string, string | string[]> = {};
          for (let k = Math.floor(next() * 6); k > 0; k--) {
            fields[pick(FIELDS)] = next() < 0.2 ? [pick(VALUES), pick(VALUES)] : pick(VALUES);
          }
          await member.get("/app/tools"); // a fresh CSRF token
          request = `POST ${path} ${JSON.stringify(fields).slice(0, 200)}`;
          status = (await member.post(path, fields)).status;
        }
        statuses.add(status);
        if (status >= 500) faults.push(`${status} ${request}`);
      }
      assert.deepEqual(faults.slice(0, 10), []);
      // the requests reach pages and answers as well as refusals
      assert.ok(statuses.has(200) && statuses.has(400), [...statuses].join(" "));
    } finally {
      await env.close();
    }
  },
);
