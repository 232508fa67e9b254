/** CSV files the app writes, read back in tests with a maintained RFC 4180 parser. */
import { parse } from "csv-parse/sync";

export function readCsv(text: string): string[][] {
  return parse(text, { relax_column_count: false, record_delimiter: "\r\n" }) as string[][];
}
