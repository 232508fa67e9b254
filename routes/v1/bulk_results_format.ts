/**
 * A bulk job's results as files: JSON lines (one object per row: its input lines, input, state,
 * the operation's answer and what it cost) or CSV (RFC 4180 with a byte-order mark, as the app's
 * other downloads; one line per row with the input's fields, the answer's main fields and the
 * cost; a verify row has one column per check). Shared by the API and the app's download.
 */
import type { BulkOperation } from "../../domain/bulk/bulk_job.ts";
import type { BulkResultRow } from "../../domain/bulk/read_bulk_results.ts";
import { CSV_BOM, csvLine } from "../app/csv.ts";

type Cell = string | null;
type Column = [string, (row: BulkResultRow) => Cell];

const text = (value: unknown): Cell => value === null || value === undefined ? null : String(value);
const inputField = (name: string) => (row: BulkResultRow) =>
  text((row.input as unknown as Record<string, unknown>)[name]);
const answerField = (...path: string[]) => (row: BulkResultRow) => {
  let value: unknown = row.answer;
  for (const key of path) value = (value as Record<string, unknown> | null)?.[key];
  return text(value);
};
const common = {
  line: ["line", (row) => row.lines.join(" ")] as Column,
  state: ["state", (row) => row.state] as Column,
  cost: ["cost", (row) => String(row.cost)] as Column,
};

const COLUMNS: Record<BulkOperation, Column[]> = {
  find: [
    common.line,
    ["mode", inputField("mode")],
    ["name", inputField("name")],
    ["company", (row) => inputField("domain")(row) ?? inputField("companyName")(row)],
    ["networkUrl", inputField("networkUrl")],
    common.state,
    ["found", answerField("found")],
    ["email", answerField("email")],
    ["status", answerField("status")],
    ["confidence", answerField("confidence")],
    ["companyDomain", answerField("company", "domain")],
    ["reason", answerField("reason")],
    common.cost,
  ],
  enrich: [
    common.line,
    ["email", inputField("email")],
    common.state,
    ["found", answerField("found")],
    ["name", answerField("person", "name")],
    ["title", answerField("person", "title")],
    ["companyName", answerField("person", "companyName")],
    ["location", answerField("person", "location")],
    ["networkUrl", answerField("person", "networkUrl")],
    ["reason", answerField("reason")],
    common.cost,
  ],
  // One column per check, so a sheet can filter on each.
  verify: [
    common.line,
    ["email", inputField("email")],
    common.state,
    ["status", answerField("status")],
    ["reason", answerField("reason")],
    ["confidence", answerField("confidence")],
    ["syntax", answerField("checks", "syntax")],
    ["disposable", answerField("checks", "disposable")],
    ["role", answerField("checks", "role")],
    ["freeMail", answerField("checks", "freeMail")],
    ["didYouMean", answerField("checks", "didYouMean")],
    ["mxHosts", (row) => {
      const hosts = (row.answer as { mail?: { mxHosts?: string[] } } | null)?.mail?.mxHosts;
      return hosts && hosts.length > 0 ? hosts.join(" ") : null;
    }],
    ["acceptsMail", answerField("mail", "acceptsMail")],
    ["provider", answerField("mail", "provider")],
    ["catchAll", answerField("mail", "catchAll")],
    ["smtpCode", answerField("verification", "smtpCode")],
    ["enhancedStatus", answerField("verification", "enhancedStatus")],
    ["checkedAt", answerField("verification", "checkedAt")],
    ["cached", answerField("cached")],
    common.cost,
  ],
};

/** The file as a stream of UTF-8 chunks, one per chunk of rows read. */
export function resultsStream(
  operation: BulkOperation,
  chunks: AsyncIterable<BulkResultRow[]>,
  format: "csv" | "jsonl",
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const columns = COLUMNS[operation];
  const iterator = chunks[Symbol.asyncIterator]();
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      let out = "";
      if (!started && format === "csv") {
        out = CSV_BOM + csvLine(columns.map(([name]) => name));
      }
      started = true;
      const next = await iterator.next();
      if (next.done) {
        if (out) controller.enqueue(encoder.encode(out));
        controller.close();
        return;
      }
      for (const row of next.value) {
        out += format === "csv"
          ? csvLine(columns.map(([, read]) => read(row)))
          : JSON.stringify(row) + "\n";
      }
      controller.enqueue(encoder.encode(out));
    },
  });
}
