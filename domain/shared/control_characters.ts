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

/**
 * Every control character: C0 (tab, line feed and carriage return included), DEL and C1. For
 * one-line fields that reach a wire protocol or a lookup (find's name, company and profile URL):
 * a line break there is never part of a name and could smuggle a line into a dialogue.
 */
// deno-lint-ignore no-control-regex
const ANY_CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

export function hasAnyControlCharacter(text: string): boolean {
  return ANY_CONTROL_CHARACTER.test(text);
}

export function controlCharacterMessage(field: string): string {
  return `${field} must not contain control characters`;
}
