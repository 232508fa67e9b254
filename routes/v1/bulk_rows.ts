/**
 * A bulk job's rows, read from JSON (`rows`, each the operation's own request body; a row's line
 * is its 1-based position) or CSV (a header row naming the fields; a row's line is the file line
 * it starts on, the header being line 1), each checked as the single call checks its body. A bad
 * row is set aside with its line and what was wrong, never its content; exact duplicates (equal
 * once normalized: trimmed, the domain reduced to its bare host, the address lower-cased) fold
 * into the first, which keeps every line it stands for.
 */
import { parse } from "csv-parse/sync";
import type { BulkOperation, InvalidRow, ValidRow } from "../../domain/bulk/bulk_job.ts";
import { normalizeEmail } from "../../domain/do_not_contact/do_not_contact_entry.ts";
import { ServiceError } from "../../domain/errors.ts";
import { validationMessage } from "../validation_message.ts";
import { EnrichBodySchema } from "./enrich_email_schemas.ts";
import { FindBodySchema, toFindInput } from "./find_schemas.ts";
import { VerifyBodySchema } from "./verify_email_schemas.ts";

/** Rows one request may submit (before validation and folding). */
export const MAX_SUBMITTED_ROWS = 10_000;

export interface SubmittedRow {
  line: number;
  fields: unknown;
}

export interface ReadRows {
  rows: ValidRow[];
  invalid: InvalidRow[];
  duplicates: number;
}

/** The CSV header names of each operation's fields (matched without regard to case). */
export const CSV_FIELDS: Record<BulkOperation, readonly string[]> = {
  find: ["mode", "name", "company", "networkUrl"],
  enrich: ["email"],
  verify: ["email"],
};

export function tooManyRows(count: number): void {
  if (count > MAX_SUBMITTED_ROWS) {
    throw new ServiceError(
      "validation_error",
      `A job takes at most ${MAX_SUBMITTED_ROWS} rows; this one has ${count}`,
    );
  }
}

/** The data rows of a CSV file as objects keyed by the operation's field names. */
export function readCsvRows(operation: BulkOperation, text: string): SubmittedRow[] {
  let records: { record: string[]; info: { lines: number; empty_lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new ServiceError(
      "validation_error",
      `The CSV could not be read${line ? ` (near line ${line})` : ""}: check its quoting`,
    );
  }
  if (records.length === 0) throw new ServiceError("validation_error", "The CSV is empty");
  const known = new Map(CSV_FIELDS[operation].map((field) => [field.toLowerCase(), field]));
  const columns = records[0].record.map((name) => known.get(name.trim().toLowerCase()) ?? null);
  if (!columns.some((column) => column !== null)) {
    throw new ServiceError(
      "validation_error",
      `The CSV's header row must name the ${operation} fields: ${CSV_FIELDS[operation].join(", ")}`,
    );
  }
  tooManyRows(records.length - 1);
  const rows: SubmittedRow[] = [];
  let previous = records[0].info;
  for (const { record, info } of records.slice(1)) {
    // A quoted field may span lines: the row's line is where it starts.
    const line = previous.lines + 1 + (info.empty_lines - previous.empty_lines);
    previous = info;
    const fields: Record<string, string> = {};
    columns.forEach((column, i) => {
      const value = record[i]?.trim();
      if (column && value) fields[column] = value;
    });
    rows.push({ line, fields });
  }
  return rows;
}

export function jsonRows(rows: unknown[]): SubmittedRow[] {
  tooManyRows(rows.length);
  return rows.map((fields, i) => ({ line: i + 1, fields }));
}

export function validateRows(operation: BulkOperation, submitted: SubmittedRow[]): ReadRows {
  const invalid: InvalidRow[] = [];
  const byKey = new Map<string, ValidRow>();
  let duplicates = 0;
  for (const { line, fields } of submitted) {
    const checked = operation === "find"
      ? checkFindRow(fields)
      : operation === "verify"
      ? checkVerifyRow(fields)
      : checkEnrichRow(fields);
    if ("message" in checked) {
      invalid.push({ line, message: checked.message });
      continue;
    }
    const key = JSON.stringify(checked.input);
    const first = byKey.get(key);
    if (first) {
      first.lines.push(line);
      duplicates++;
      continue;
    }
    byKey.set(key, { lines: [line], input: checked.input, groupKey: checked.groupKey });
  }
  return { rows: [...byKey.values()], invalid, duplicates };
}

type Checked = Omit<ValidRow, "lines"> | { message: string };

function checkFindRow(fields: unknown): Checked {
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    return { message: "A row must be an object" };
  }
  const parsed = FindBodySchema.safeParse(fields);
  if (!parsed.success) return { message: validationMessage(parsed.error) };
  try {
    const input = toFindInput(parsed.data);
    const groupKey = input.mode === "email"
      ? `domain:${input.domain}`
      : input.mode === "company"
      ? `company:${input.companyName.toLowerCase()}`
      : "network:";
    return { input, groupKey };
  } catch (error) {
    if (error instanceof ServiceError) return { message: error.message };
    throw error;
  }
}

function checkEnrichRow(fields: unknown): Checked {
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    return { message: "A row must be an object" };
  }
  const parsed = EnrichBodySchema.safeParse(fields);
  if (!parsed.success) return { message: validationMessage(parsed.error) };
  const email = normalizeEmail(parsed.data.email);
  if (!email) return { message: "email is not a well-formed address" };
  return { input: { email }, groupKey: `domain:${email.slice(email.lastIndexOf("@") + 1)}` };
}

/**
 * A verify row: an `email` as the single call takes it. A malformed address stays a row (its
 * answer is `invalid-syntax`, free): a cleaned list keeps every line it was given.
 */
function checkVerifyRow(fields: unknown): Checked {
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    return { message: "A row must be an object" };
  }
  const parsed = VerifyBodySchema.safeParse(fields);
  if (!parsed.success) return { message: validationMessage(parsed.error) };
  const email = normalizeEmail(parsed.data.email);
  if (!email) return { input: { email: parsed.data.email }, groupKey: "syntax:" };
  return { input: { email }, groupKey: `domain:${email.slice(email.lastIndexOf("@") + 1)}` };
}
