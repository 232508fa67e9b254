/**
 * The name list's answers as a CSV file (`../csv.ts`: RFC 4180, UTF-8 with a byte-order mark so
 * that spreadsheet programs read accented names as UTF-8). Built from a replayed answer in
 * memory, never from storage: names are not kept anywhere.
 */
import type { BatchRow } from "../../../domain/name_parse/parse_names_batch.ts";
import { csvFile } from "../csv.ts";
import { confidence } from "../numbers.ts";

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

/** One line per submitted name, in order: its reading, or the row's refusal in `error`. */
export function namesCsv(names: readonly string[], rows: readonly BatchRow[]): string {
  return csvFile(
    NAMES_CSV_COLUMNS,
    rows.map((row, i) =>
      "data" in row
        ? [
          names[i],
          row.data.given,
          row.data.surname,
          row.data.nickname,
          row.data.source,
          row.data.confidence === null ? null : confidence(row.data.confidence),
          String(row.data.bothOrders),
          null,
        ]
        : [names[i], null, null, null, null, null, null, row.error.message]
    ),
  );
}
