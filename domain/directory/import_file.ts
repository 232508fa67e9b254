/**
 * `admin import`: a JSON-lines file into the directory, streamed in batches of `IMPORT_BATCH`
 * records (one is written while the next is read), progress every `IMPORT_PROGRESS_EVERY` lines,
 * the first `IMPORT_MAX_ERRORS` bad lines listed by number. A record of a person on the
 * service-wide suppression list (any of its addresses, its profile URL, or its name at its
 * company's domain) is skipped and counted (`suppressed`), never written: an erased person does
 * not come back with the next import of the same file.
 */
import { suppressedAmong, type SuppressionContext } from "../privacy/is_suppressed.ts";
import { ServiceError } from "../errors.ts";
import type { ProfileNetwork } from "../shared/profile_network.ts";
import { importPeople, type NameSplit } from "./import_people.ts";
import { type ImportRecord, parseImportLine } from "./import_record.ts";

const IMPORT_BATCH = 1000;
const IMPORT_PROGRESS_EVERY = 10_000;
const IMPORT_MAX_ERRORS = 100;

/**
 * Streams a JSON-lines file into the directory in batches: a bad line (invalid JSON, a record
 * that does not validate) is counted and listed with its 1-based number, the others are loaded.
 */
export async function importFile(
  ctx: SuppressionContext,
  options: {
    path: string;
    splitNames: (names: string[]) => Promise<(NameSplit | null)[]>;
    /** Profile URLs of this network are stored in its canonical form. */
    network: ProfileNetwork;
    progress: (line: string) => void;
  },
) {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(options.path);
  } catch (error) {
    throw new ServiceError("not_found", `cannot read ${options.path}: ${(error as Error).message}`);
  }
  const started = performance.now();
  const totals = {
    lines: 0,
    imported: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    companiesCreated: 0,
    companiesUpdated: 0,
  };
  let rejected = 0;
  let suppressed = 0;
  const errors: { line: number; message: string }[] = [];
  let batch: ImportRecord[] = [];
  // One batch is written while the next is read and validated (batches stay in file order).
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    const records = batch;
    batch = [];
    await writing;
    if (records.length === 0) return;
    writing = write(records);
    writing.catch(() => {}); // handled: the next flush awaits it and rethrows
  };
  const write = async (all: ImportRecord[]) => {
    const skip = await suppressedAmong(ctx, {
      people: all.map((r) => ({
        emails: [...r.emails.map((e) => e.address), ...(r.channels?.emails ?? [])],
        profileUrls: [r.networkUrl],
        names: [
          { name: r.name, domain: r.companyDomain },
          ...(r.given && r.surname
            ? [{ name: `${r.given} ${r.surname}`, domain: r.companyDomain }]
            : []),
        ],
      })),
    });
    suppressed += skip.size;
    const records = all.filter((_, i) => !skip.has(i));
    if (records.length === 0) return;
    const result = await importPeople(ctx, records, {
      splitNames: options.splitNames,
      batchSize: IMPORT_BATCH,
    });
    totals.imported += result.records;
    totals.created += result.created;
    totals.updated += result.updated;
    totals.unchanged += result.unchanged;
    totals.companiesCreated += result.companiesCreated;
    totals.companiesUpdated += result.companiesUpdated;
  };
  const report = () =>
    options.progress(
      `import: ${totals.lines} lines, ${totals.imported} imported, ${rejected} rejected, ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  const lines = file.readable.pipeThrough(new TextDecoderStream()).pipeThrough(splitLines());
  for await (const line of lines) {
    totals.lines++;
    if (line.trim() !== "") {
      const parsed = parseImportLine(line, options.network);
      if (parsed.ok) batch.push(parsed.record);
      else {
        rejected++;
        if (errors.length < IMPORT_MAX_ERRORS) {
          errors.push({ line: totals.lines, message: parsed.message });
        }
      }
    }
    if (batch.length >= IMPORT_BATCH) await flush();
    if (totals.lines % IMPORT_PROGRESS_EVERY === 0) report();
  }
  await flush();
  await writing;
  if (totals.lines % IMPORT_PROGRESS_EVERY !== 0 || totals.lines === 0) report();
  return {
    lines: totals.lines,
    imported: totals.imported,
    created: totals.created,
    updated: totals.updated,
    unchanged: totals.unchanged,
    companies: { created: totals.companiesCreated, updated: totals.companiesUpdated },
    rejected,
    suppressed,
    errors,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
  };
}

/** Splits a byte-decoded text stream into lines (`\n` or `\r\n`; a leading BOM dropped). */
function splitLines(): TransformStream<string, string> {
  let rest = "";
  let first = true;
  return new TransformStream({
    transform(chunk, controller) {
      if (first) {
        chunk = chunk.replace(/^\uFEFF/, "");
        first = false;
      }
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      for (const part of parts) controller.enqueue(part.endsWith("\r") ? part.slice(0, -1) : part);
    },
    flush(controller) {
      if (rest !== "") controller.enqueue(rest.endsWith("\r") ? rest.slice(0, -1) : rest);
    },
  });
}
