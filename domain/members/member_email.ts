import { ServiceError } from "../errors.ts";
import { hasControlCharacter } from "../shared/control_characters.ts";

/** A member's sign-in address in its stored form: trimmed, lower case. */
export function normalizeMemberEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (
    email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || hasControlCharacter(email)
  ) {
    throw new ServiceError("validation_error", "Enter an email address like name@example.com");
  }
  return email;
}
