/**
 * A new embedded database starts as a copy of `pglite_template.tar.gz`: the data directory PGlite's
 * initdb makes, made once by `deno task db:template` and shipped. initdb itself runs a second
 * PGlite beside a full copy of its WebAssembly heap and peaks near 650 MB, more than a 512 MB
 * machine has; unpacking the template takes a few MB and well under a second.
 *
 * The archive is a plain ustar (`tar --format=ustar -czf`) of regular files and directories.
 * `pglite_template.json` records the PGlite version that made it; on any other version (or any
 * failure) the caller falls back to initdb (database.ts).
 */

/** The PGlite version the shipped template was made with. */
export async function templateVersion(): Promise<string | null> {
  try {
    const meta = JSON.parse(
      await Deno.readTextFile(new URL("./pglite_template.json", import.meta.url)),
    ) as { pglite?: unknown };
    return typeof meta.pglite === "string" ? meta.pglite : null;
  } catch {
    return null;
  }
}

/** The PGlite version deno.json pins (`npm:@electric-sql/pglite@X`), or null. */
export function pinnedPgliteVersion(): string | null {
  try {
    const resolved = import.meta.resolve("@electric-sql/pglite");
    return /pglite[@/](\d+\.\d+\.\d+)/.exec(decodeURIComponent(resolved))?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * Unpacks the template into `dir` (which must be empty or missing). False, with nothing to use
 * in `dir`, when there is no template for this PGlite version.
 */
export async function unpackTemplate(dir: string): Promise<boolean> {
  const version = await templateVersion();
  if (version === null || version !== pinnedPgliteVersion()) return false;
  let archive: Uint8Array;
  try {
    const file = await Deno.open(new URL("./pglite_template.tar.gz", import.meta.url));
    archive = new Uint8Array(
      await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer(),
    );
  } catch {
    return false;
  }
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  for (const entry of readTar(archive)) {
    const path = `${dir}/${entry.name}`;
    if (entry.type === "dir") {
      await Deno.mkdir(path, { recursive: true, mode: 0o700 });
    } else {
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true, mode: 0o700 });
      await Deno.writeFile(path, entry.data, { mode: 0o600 });
    }
  }
  return true;
}

interface TarEntry {
  name: string;
  type: "file" | "dir";
  data: Uint8Array;
}

/** Regular files and directories of a ustar archive; names are kept inside the target. */
export function* readTar(archive: Uint8Array): Generator<TarEntry> {
  const text = new TextDecoder();
  const field = (at: number, length: number) =>
    text.decode(archive.subarray(at, at + length)).replace(/\0.*$/s, "");
  for (let offset = 0; offset + 512 <= archive.length;) {
    if (archive.subarray(offset, offset + 512).every((b) => b === 0)) break;
    const prefix = field(offset + 345, 155);
    const name = (prefix ? `${prefix}/` : "") + field(offset + 0, 100);
    const size = parseInt(field(offset + 124, 12).trim() || "0", 8);
    const flag = String.fromCharCode(archive[offset + 156]);
    const start = offset + 512;
    offset = start + Math.ceil(size / 512) * 512;
    const clean = name.replace(/^(\.?\/)+/, "").replace(/\/$/, "");
    if (!clean || clean.split("/").includes("..")) continue;
    if (flag === "5") yield { name: clean, type: "dir", data: new Uint8Array(0) };
    else if (flag === "0" || flag === "\0") {
      yield { name: clean, type: "file", data: archive.subarray(start, start + size) };
    }
  }
}
