/**
 * Media types as RFC 9110 §8.3.1 writes them: `type "/" subtype *( OWS ";" OWS [ parameter ] )`,
 * a parameter `name "=" ( token / quoted-string )`. Type, subtype and parameter names are
 * case-insensitive (returned in lower case); whitespace is allowed around each `;`, never around
 * `/` or `=`.
 */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\]|\\\\[\\t\\x20-\\x7e\\x80-\\xff])*"';
const PARAMETER = `(${TOKEN})=(${TOKEN}|${QUOTED})`;
const MEDIA_TYPE = new RegExp(
  `^[ \\t]*(${TOKEN})/(${TOKEN})((?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*)[ \\t]*$`,
);
const PARAMETER_GLOBAL = new RegExp(PARAMETER, "g");

export interface MediaType {
  type: string;
  subtype: string;
  /** Parameter names in lower case; a quoted value without its quotes and escapes. */
  parameters: Record<string, string>;
}

/** The parsed media type of a Content-Type value, or null when it is not one. */
export function parseMediaType(text: string): MediaType | null {
  const match = MEDIA_TYPE.exec(text);
  if (!match) return null;
  const parameters: Record<string, string> = {};
  for (const [, name, value] of match[3].matchAll(PARAMETER_GLOBAL)) {
    parameters[name.toLowerCase()] = value.startsWith('"')
      ? value.slice(1, -1).replace(/\\(.)/g, "$1")
      : value;
  }
  return { type: match[1].toLowerCase(), subtype: match[2].toLowerCase(), parameters };
}

/** `application/json` or a structured `application/…+json` (RFC 6839). */
export function isJsonMediaType(media: MediaType | null): boolean {
  return media !== null && media.type === "application" &&
    (media.subtype === "json" || media.subtype.endsWith("+json"));
}
