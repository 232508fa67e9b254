/**
 * The app's CSV downloads (the name list's answers, a lead-search run's leads), written one way:
 * RFC 4180 (a header row, CRLF line ends, a field quoted when it holds a quote, a comma or a line
 * break, quotes doubled), UTF-8 WITH a byte-order mark so that spreadsheet programs read accented
 * names (László, Núñez) as UTF-8 instead of a legacy code page.
 */

const BOM = "\uFEFF";

/** A whole file: the byte-order mark, the header, one line per row, each line ending in CRLF. */
export function csvFile(
  header: readonly string[],
  rows: Iterable<readonly (string | null)[]>,
): string {
  const lines = [header.map(csvField).join(",")];
  for (const row of rows) lines.push(row.map(csvField).join(","));
  return BOM + lines.join("\r\n") + "\r\n";
}

/**
 * One field, quoted as RFC 4180 says. A value a spreadsheet would run as a formula (`=`, `+`, `-`,
 * `@`, tab or CR first) gets a leading apostrophe: learned profiles come from web pages, and a
 * title like `=HYPERLINK(…)` must stay text when the file is opened.
 */
export function csvField(value: string | null): string {
  if (value === null) return "";
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
