import assert from "node:assert/strict";
import { writtenSurnameFirst } from "./read_person_name.ts";

Deno.test("written order: surname first, given first, and a comma inversion", () => {
  assert.equal(writtenSurnameFirst("Nguyễn Văn An", { given: "Văn An", surname: "Nguyễn" }), true);
  assert.equal(
    writtenSurnameFirst("Tanaka Hiroshi", { given: "Hiroshi", surname: "Tanaka" }),
    true,
  );
  assert.equal(
    writtenSurnameFirst("Mary Ann Smith", { given: "Mary Ann", surname: "Smith" }),
    false,
  );
  assert.equal(
    writtenSurnameFirst("Smith, Mary Ann", { given: "Mary Ann", surname: "Smith" }),
    false,
  );
  assert.equal(writtenSurnameFirst("Madonna", { given: "Madonna", surname: "" }), false);
});
