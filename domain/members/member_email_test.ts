import assert from "node:assert/strict";
import { normalizeMemberEmail } from "./member_email.ts";

Deno.test("member email: trimmed and lower-cased; anything else is a validation_error", () => {
  assert.equal(normalizeMemberEmail("  Bo@Example.COM "), "bo@example.com");
  // a control character (NUL cannot be stored) is refused like any malformed address
  for (
    const bad of ["bo", "bo@example", "b o@example.com", "bo\u0000@example.com", "bo@ex\u0007.com"]
  ) {
    assert.throws(() => normalizeMemberEmail(bad), { code: "validation_error" }, bad);
  }
});
