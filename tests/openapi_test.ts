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

type Schema = Record<string, unknown>;

/**
 * Whether `value` satisfies `schema` for the JSON Schema keywords the document's answers use
 * ($ref, type, enum, allOf, anyOf, oneOf, properties, required, items): enough to see that a
 * nullable field really admits null.
 */
function satisfies(document: { components: { schemas: Record<string, Schema> } }) {
  const check = (schema: Schema, value: unknown): boolean => {
    if (typeof schema.$ref === "string") {
      const target = document.components.schemas[schema.$ref.replace("#/components/schemas/", "")];
      assert.ok(target, `no component for ${schema.$ref}`);
      if (!check(target, value)) return false;
    }
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      const actual = value === null
        ? "null"
        : Array.isArray(value)
        ? "array"
        : Number.isInteger(value)
        ? "integer"
        : typeof value;
      if (!types.includes(actual) && !(actual === "integer" && types.includes("number"))) {
        return false;
      }
    }
    if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
    const all = (schema.allOf ?? []) as Schema[];
    if (!all.every((member) => check(member, value))) return false;
    if (Array.isArray(schema.anyOf) && !schema.anyOf.some((member) => check(member, value))) {
      return false;
    }
    if (
      Array.isArray(schema.oneOf) &&
      schema.oneOf.filter((member) => check(member, value)).length !== 1
    ) return false;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const record = value as Record<string, unknown>;
      for (const name of (schema.required ?? []) as string[]) {
        if (!(name in record)) return false;
      }
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Schema)) {
        if (name in record && !check(property as Schema, record[name])) return false;
      }
    }
    if (Array.isArray(value) && schema.items) {
      if (!value.every((item) => check(schema.items as Schema, item))) return false;
    }
    return true;
  };
  return check;
}

Deno.test(
  "openapi.json: a nullable object admits null (balance: the object or null, spec §2.1)",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const document = await (await env.app.request("/api/v1/openapi.json")).json();
      const schemas = document.components.schemas as Record<string, Schema>;
      const check = satisfies(document);
      const balance = { available: 9, reserved: 0, granted: 10 };
      for (
        const name of [
          "ParsedName",
          "ParsedNameBatch",
          "FindAnswer",
          "NetworkSearchAnswer",
          "EnrichEmailAnswer",
          "LeadSearchStartAnswer",
        ]
      ) {
        const property = (schemas[name].properties as Record<string, Schema>).balance;
        assert.ok(property, `${name}.balance`);
        assert.equal(check(property, null), true, `${name}.balance admits null`);
        assert.equal(check(property, balance), true, `${name}.balance admits a balance`);
        assert.equal(check(property, "950"), false, `${name}.balance refuses a string`);
        assert.equal(check(property, { available: 1 }), false, `${name}.balance needs its fields`);
      }
      // A whole single answer with a null balance validates against ParsedName.
      const answer = {
        first: "Ada",
        last: "Lovelace",
        given: "Ada",
        surname: "Lovelace",
        nickname: null,
        source: "model",
        confidence: 0.9,
        bothOrders: false,
        charged: true,
        pointsCharged: 1,
        replay: false,
        balance: null,
      };
      assert.equal(check({ $ref: "#/components/schemas/ParsedName" }, answer), true);
      assert.equal(
        check({ $ref: "#/components/schemas/ParsedNameBatch" }, {
          results: [],
          pointsCharged: 0,
          replay: false,
          balance: null,
        }),
        true,
      );
      // Nowhere an allOf that pairs a $ref with a null-admitting marker (a null never passes it).
      const walk = (node: unknown, path: string): void => {
        if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}/${i}`));
        if (typeof node !== "object" || node === null) return;
        const members = (node as Schema).allOf;
        if (Array.isArray(members) && members.some((m) => (m as Schema).$ref)) {
          for (const member of members as Schema[]) {
            const type = member.type;
            assert.ok(
              !(Array.isArray(type) && type.includes("null")),
              `${path}: allOf with a $ref and a nullable marker`,
            );
          }
        }
        for (const [key, value] of Object.entries(node)) walk(value, `${path}/${key}`);
      };
      walk(document, "");
    } finally {
      await env.close();
    }
  },
);

Deno.test("openapi.json: a name is at most 256 characters (spec §8)", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const document = await (await env.app.request("/api/v1/openapi.json")).json();
    const schemas = document.components.schemas;
    assert.equal(schemas.ParseNameRequest.properties.name.maxLength, 256);
    assert.equal(schemas.ParseNameBatchRequest.properties.names.items.maxLength, 256);
    assert.equal(schemas.ParseNameBatchRequest.properties.names.maxItems, 100);
  } finally {
    await env.close();
  }
});
