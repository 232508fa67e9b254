/**
 * C0 control characters but tab, line feed and carriage return, and DEL: no name, company, URL,
 * filter or label holds one, and the database cannot store NUL. Text that holds one is refused
 * with a `validation_error` naming the field (`controlCharacterMessage`).
 */
// deno-lint-ignore no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

export function controlCharacterMessage(field: string): string {
  return `${field} must not contain control characters`;
}
