import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { DEFAULT_PRICES } from "../domain/config/config.ts";
import { createTestEnv, DB_TEST } from "./harness.ts";

Deno.test(
  "openapi.json: no key, valid OpenAPI 3.1, costs from the price table",
  DB_TEST,
  async () => {
    const prices = { ...DEFAULT_PRICES, nameParse: 3 };
    const env = await createTestEnv({ config: { prices } });
    try {
      const res = await env.app.request("/api/v1/openapi.json");
      assert.equal(res.status, 200);
      const document = await res.json();
      assert.equal(document.openapi, "3.1.0");
      assert.equal(document.info.version, "v1");
      const result = await new Validator().validate(document);
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
      assert.equal(document.components.securitySchemes.apiKey.scheme, "bearer");
      assert.ok(document.components.schemas.Error, "error schema");
      const points = document.paths["/api/v1/points"].get;
      assert.deepEqual(points.security, [{ apiKey: [] }]);
      assert.ok(points.responses["401"] && points.responses["429"]);
      assert.deepEqual(points["x-cost"], []);
      // Each billed route declares its own cost; the points come from the price table.
      const find = document.paths["/api/v1/find"].post;
      assert.deepEqual(
        find["x-cost"].map((c: { priceName: string; points: number }) => [c.priceName, c.points]),
        [["findEmail", prices.findEmail], ["findCompany", prices.findCompany]],
      );
      assert.deepEqual(
        document.paths["/api/v1/name/parse"].post["x-cost"].map((c: { points: number }) =>
          c.points
        ),
        [3],
      );
      assert.ok(find.responses["200"] && find.responses["400"] && find.responses["409"]);
      assert.ok(document.components.schemas.FindAnswer, "find answer schema");
      for (
        const methods of Object.values(document.paths) as Record<
          string,
          { "x-cost"?: { points: number; priceName: string }[] }
        >[]
      ) {
        for (const operation of Object.values(methods)) {
          for (const cost of operation["x-cost"] ?? []) {
            assert.equal(cost.points, prices[cost.priceName as keyof typeof prices]);
          }
        }
      }
    } finally {
      await env.close();
    }
  },
);
