/**
 * fast-check arbitraries for the JSON Schema keywords the OpenAPI document's requests use: type
 * (and type lists), enum, const, anyOf/oneOf, properties/required/additionalProperties,
 * if/then/else, items/minItems/maxItems, minLength/maxLength (code points), pattern, minimum and
 * maximum. They aim at values the schema admits; a real validator (Ajv) decides admission, so an
 * imperfect aim costs samples, never a wrong verdict.
 */
import fc from "fast-check";

type Json = Record<string, unknown>;

/** Strings of every kind: ASCII, any code point (astral and lone surrogates too), whitespace. */
function anyString(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ unit: "grapheme", minLength, maxLength }),
    fc.string({ unit: "binary", minLength, maxLength }),
    fc.string({
      unit: fc.constantFrom(" ", "\t", "\u00a0", "a", "Z", "é", "😀"),
      minLength,
      maxLength,
    }),
  );
}

/**
 * A pattern without its lookaround groups, which fast-check's `stringMatching` cannot build;
 * the full pattern still filters what comes out.
 */
function withoutLookarounds(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === "\\") {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (pattern.startsWith("(?=", i) || pattern.startsWith("(?!", i)) {
      let depth = 0;
      for (; i < pattern.length; i++) {
        if (pattern[i] === "\\") i++;
        else if (pattern[i] === "(") depth++;
        else if (pattern[i] === ")" && --depth === 0) break;
      }
      continue;
    }
    out += pattern[i];
  }
  return out;
}

const codePoints = (text: string) => [...text].length;

function stringArbitrary(schema: Json, patterns: string[]): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = (schema.maxLength as number | undefined) ?? 300;
  const regexes = patterns.map((p) => new RegExp(p, "u"));
  const source = patterns.length > 0
    ? fc.oneof(
      fc.stringMatching(new RegExp(withoutLookarounds(patterns[patterns.length - 1]), "u")),
      anyString(minLength, Math.min(maxLength, 300)),
    )
    : anyString(minLength, Math.min(maxLength, 300));
  return source.filter((value) => {
    const length = codePoints(value);
    return length >= minLength && length <= maxLength && regexes.every((r) => r.test(value));
  });
}

/** Property constraints of an `if`/`then`/`else` branch laid over the object's own. */
function overlay(base: Json, branch: Json | undefined): Json {
  if (!branch) return base;
  const properties = { ...(base.properties as Json ?? {}) };
  for (const [name, constraint] of Object.entries(branch.properties as Json ?? {})) {
    const own = properties[name] as Json | undefined;
    if (!own) continue;
    const patterns = [
      ...((own["x-patterns"] as string[] | undefined) ??
        (own.pattern ? [own.pattern as string] : [])),
      ...((constraint as Json).pattern ? [(constraint as Json).pattern as string] : []),
    ];
    properties[name] = {
      ...own,
      ...(constraint as Json),
      ...(patterns.length > 0 ? { "x-patterns": patterns } : {}),
    };
  }
  const required = [
    ...new Set([...(base.required as string[] ?? []), ...(branch.required as string[] ?? [])]),
  ];
  const { if: _if, then: _then, else: _else, ...rest } = base;
  const next = { ...rest, properties, required };
  // A branch may hold its own condition (find's email and company modes).
  return branch.if ? { ...next, if: branch.if, then: branch.then, else: branch.else } : next;
}

export function arbitraryOf(schema: Json, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 12) return fc.constant(null);
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = schema[key] as Json[] | undefined;
    if (members) return fc.oneof(...members.map((m) => arbitraryOf({ ...m }, depth + 1)));
  }
  if (schema.if) {
    const condition = schema.if as Json;
    return fc.oneof(
      arbitraryOf(overlay(overlay(schema, condition), schema.then as Json), depth + 1),
      arbitraryOf(overlay(schema, schema.else as Json), depth + 1),
    );
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => arbitraryOf({ ...schema, type }, depth + 1)));
  }
  switch (types[0]) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({
        min: (schema.minimum as number | undefined) ?? -1_000_000,
        max: (schema.maximum as number | undefined) ?? 1_000_000,
      });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "string": {
      const patterns = (schema["x-patterns"] as string[] | undefined) ??
        (schema.pattern ? [schema.pattern as string] : []);
      return stringArbitrary(schema, patterns);
    }
    case "array":
      return fc.array(arbitraryOf((schema.items ?? {}) as Json, depth + 1), {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: Math.min((schema.maxItems as number | undefined) ?? 10, 12),
      });
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) {
        record[name] = arbitraryOf(property, depth + 1);
      }
      return fc.record(record, {
        requiredKeys: (schema.required as string[] | undefined ?? []).filter((k) => k in record),
      });
    }
    default:
      return fc.constant({});
  }
}
