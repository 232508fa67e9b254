/**
 * The app's CSV downloads (the name list's answers, a lead-search run's leads), written one way:
 * RFC 4180 (a header row, CRLF line ends, a field quoted when it holds a quote, a comma or a line
 * break, quotes doubled), UTF-8 WITH a byte-order mark so that spreadsheet programs read accented
 * names (László, Núñez) as UTF-8 instead of a legacy code page.
 */

const BOM = "\uFEFF";

/** A cell: text (quoted and guarded as needed), a number as written (a sign is no formula). */
export type CsvCell = string | number | null;

/** A whole file: the byte-order mark, the header, one line per row, each line ending in CRLF. */
export function csvFile(
  header: readonly string[],
  rows: Iterable<readonly CsvCell[]>,
): string {
  let file = BOM + csvLine(header);
  for (const row of rows) file += csvLine(row);
  return file;
}

/** One line of a file, CRLF included (for files written a chunk at a time). */
export function csvLine(row: readonly CsvCell[]): string {
  return row.map(csvField).join(",") + "\r\n";
}

/** The byte-order mark a file starts with. */
export const CSV_BOM = BOM;

/**
 * One field, quoted as RFC 4180 says. A value a spreadsheet would run as a formula (`=`, `+`, `-`,
 * `@`, tab or CR first) gets a leading apostrophe: learned profiles come from web pages, and a
 * title like `=HYPERLINK(…)` must stay text when the file is opened.
 */
export function csvField(value: CsvCell): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
