/**
 * Characters as a person counts them and as JSON Schema's `maxLength` counts them: code points,
 * not UTF-16 units. A limit stated as "at most 256 characters" in the OpenAPI document must hold
 * for a name written in an astral script (or with emoji) exactly as it does for Latin letters.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
