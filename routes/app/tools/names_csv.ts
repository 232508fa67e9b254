/**
 * The name list's answers as a CSV file: RFC 4180 (a header row, CRLF line ends, a field quoted
 * when it holds a quote, a comma or a line break, quotes doubled), UTF-8 WITH a byte-order mark so
 * that spreadsheet programs read accented names (László, Núñez) as UTF-8 instead of a legacy code
 * page. Built from a replayed answer in memory, never from storage: names are not kept anywhere.
 */
import type { BatchRow } from "../../../domain/name_parse/parse_names_batch.ts";
import { csvField } from "../lead_search/leads_csv.tsx";

export const NAMES_CSV_COLUMNS = [
  "name",
  "given",
  "surname",
  "nickname",
  "source",
  "confidence",
  "bothOrders",
  "error",
] as const;

const BOM = "\uFEFF";

/** One line per submitted name, in order: its reading, or the row's refusal in `error`. */
export function namesCsv(names: readonly string[], rows: readonly BatchRow[]): string {
  const lines = [NAMES_CSV_COLUMNS.join(",")];
  rows.forEach((row, i) => {
    const fields = "data" in row
      ? [
        names[i],
        row.data.given,
        row.data.surname,
        row.data.nickname,
        row.data.source,
        row.data.confidence === null ? null : String(row.data.confidence),
        String(row.data.bothOrders),
        null,
      ]
      : [names[i], null, null, null, null, null, null, row.error.message];
    lines.push(fields.map((value) => csvField(value ?? null)).join(","));
  });
  return BOM + lines.join("\r\n") + "\r\n";
}
