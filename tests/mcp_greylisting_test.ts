/**
 * The MCP tool result of a greylisted lookup says when to try again: `retryAfterSeconds` in the
 * structured answer (the API's own) and, in words, a second text item for agents that read text.
 * The verifier port is a fake that answers as the engine does when a server keeps greylisting.
 */
import assert from "node:assert/strict";
import type { EmailVerifier } from "../domain/verify/mod.ts";
import { createTestWorkspace, DB_TEST } from "./harness.ts";
import { connectMcp } from "./mcp_client.ts";
import { withServedApp } from "./served_app.ts";

const greylisting: EmailVerifier = {
  verify: () =>
    Promise.resolve({
      kind: "unavailable",
      why: "greylisted",
      evidence: {
        mxHost: "mx.grey.test",
        provider: "other",
        smtpCode: 451,
        enhancedStatus: "4.7.1",
        encrypted: true,
        certificateVerified: false,
        checkedAt: new Date().toISOString(),
      },
      retryAfterSeconds: 240,
    }),
};

Deno.test("mcp: find_email greylisted says when to call again, free", DB_TEST, async () => {
  await withServedApp({ ports: { verifier: greylisting } }, async (env, base) => {
    const ws = await createTestWorkspace(env, 100);
    const client = await connectMcp(base, ws.apiKey);
    try {
      const result = await client.callTool({
        name: "find_email",
        arguments: { name: "Grace Hopper", company: "grey.test", idempotencyKey: "mcp-grey" },
      });
      assert.equal(result.isError, undefined);
      const data = result.structuredContent as Record<string, unknown>;
      assert.equal(data.reason, "verification-unavailable");
      assert.equal(data.retryAfterSeconds, 240);
      assert.equal(data.pointsCharged, 0);
      const texts = (result.content as { type: string; text: string }[]).map((c) => c.text);
      assert.equal(texts.length, 2);
      assert.match(texts[1], /in 240 seconds/);
      assert.match(texts[1], /Nothing was charged/);
    } finally {
      await client.close();
    }
  });
});
