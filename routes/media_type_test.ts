import assert from "node:assert/strict";
import { isJsonMediaType, parseMediaType } from "./media_type.ts";

Deno.test("media type: RFC 9110 spellings of JSON are JSON", () => {
  for (
    const text of [
      "application/json",
      "application/json ; charset=utf-8",
      "application/json;charset=utf-8",
      "application/json;\tcharset=UTF-8 ",
      'application/json; charset="utf-8"',
      "Application/JSON",
      "application/json;",
      "application/json; ; charset=utf-8",
      "application/problem+json",
      'application/vnd.api+json; ext="a;b"',
    ]
  ) {
    assert.equal(isJsonMediaType(parseMediaType(text)), true, text);
  }
  assert.deepEqual(parseMediaType('Application/JSON ; Charset="ut\\f-8"'), {
    type: "application",
    subtype: "json",
    parameters: { charset: "utf-8" },
  });
});

Deno.test("media type: other types and malformed values are not JSON", () => {
  for (
    const text of [
      "",
      "text/plain",
      "text/json",
      "application/jsonx",
      "application/json-seq",
      "application/x-www-form-urlencoded",
      "application/json charset=utf-8",
      "application/json; charset",
      "application/json; charset=",
      "application / json",
      'application/json; charset="utf-8',
      "json",
    ]
  ) {
    assert.equal(isJsonMediaType(parseMediaType(text)), false, text);
  }
});
