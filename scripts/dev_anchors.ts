/**
 * The open parsers beside our reading on the dev set: the per-tag figures of
 * `shared/data/anchors-dev.md` (base, humanparser, parse-full-name, another-name-parser,
 * full-name-splitter, python-nameparser), and per row the readings of the two that run here in
 * process (humanparser, parse-full-name; each parser's first + middle as given, last as surname).
 */
import humanparser from "humanparser";
import parseFullNameMod from "parse-full-name";

export interface AnchorTable {
  columns: string[];
  /** tag → figure per column */
  byTag: Map<string, number[]>;
}

/** Reads the fenced table of anchors-dev.md: a row per tag, "tag (n)" then one figure a parser. */
export async function readAnchorTable(path: string): Promise<AnchorTable> {
  const text = await Deno.readTextFile(path);
  const lines = text.split("\n");
  const header = lines.find((l) => l.startsWith("dev (n="));
  if (!header) throw new Error(`${path}: no "dev (n=…)" header row`);
  const columns = header.replace(/^dev \(n=\d+\)/, "").trim().split(/\s+/);
  const byTag = new Map<string, number[]>();
  for (const line of lines) {
    const m = line.match(/^(\S+) \((\d+)\)\s+([\d. ]+)$/);
    if (m) byTag.set(m[1], m[3].trim().split(/\s+/).map(Number));
  }
  const overall = lines.find((l) => l.startsWith("overall "));
  if (overall) byTag.set("overall", overall.replace("overall", "").trim().split(/\s+/).map(Number));
  return { columns, byTag };
}

/** The best anchor on a tag (its column and figure), or null when the table lacks the tag. */
export function bestAnchor(t: AnchorTable, tag: string): { name: string; figure: number } | null {
  const row = t.byTag.get(tag);
  if (!row) return null;
  let best = 0;
  for (let i = 1; i < row.length; i++) if (row[i] > row[best]) best = i;
  return { name: t.columns[best], figure: row[best] };
}

export interface AnchorReading {
  given: string;
  surname: string;
}

// deno-lint-ignore no-explicit-any
const hp: any = (humanparser as any).parseName ? humanparser : (humanparser as any).default;
// deno-lint-ignore no-explicit-any
const pfnAny: any = parseFullNameMod;
const pfn = pfnAny.parseFullName ?? pfnAny.default?.parseFullName;
const join = (...xs: (string | undefined)[]) => xs.filter((x) => x && x.trim()).join(" ");

/** The readings of the anchors that run in process, by name. */
export const RUNNABLE_ANCHORS: Record<string, (input: string) => AnchorReading> = {
  humanp: (input) => {
    const r = hp.parseName(input);
    return { given: join(r.firstName, r.middleName), surname: join(r.lastName) };
  },
  pfn: (input) => {
    const r = pfn(input);
    return { given: join(r.first, r.middle), surname: join(r.last) };
  },
};
