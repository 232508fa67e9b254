/**
 * Resident memory of a process, read from Linux's /proc (null elsewhere or when the process is
 * gone): what a 512 MB VPS or container limit counts. `bench:parse` prints it after start and
 * under load; `deno run -A bench/rss.ts <pid>` prints it for any process.
 */

export interface ProcessMemory {
  /** VmRSS: resident set size, MB. */
  rssMb: number;
  /** VmHWM: the peak resident set size since the process started, MB. */
  peakRssMb: number;
  /** From smaps_rollup: anonymous memory (heaps, WASM memories), MB; null if unreadable. */
  anonymousMb: number | null;
  /** From smaps_rollup: file-backed resident memory (the binary, mapped libraries), MB. */
  fileMb: number | null;
}

const MB = 1024;

function field(text: string, name: string): number | null {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text);
  return match ? Math.round((Number(match[1]) / MB) * 10) / 10 : null;
}

/** The resident memory of `pid` (default: this process), or null where /proc is not readable. */
export async function readProcessMemory(pid: number = Deno.pid): Promise<ProcessMemory | null> {
  let status: string;
  try {
    status = await Deno.readTextFile(`/proc/${pid}/status`);
  } catch {
    return null;
  }
  const rssMb = field(status, "VmRSS");
  if (rssMb === null) return null;
  let rollup = "";
  try {
    rollup = await Deno.readTextFile(`/proc/${pid}/smaps_rollup`);
  } catch { /* older kernels */ }
  return {
    rssMb,
    peakRssMb: field(status, "VmHWM") ?? rssMb,
    anonymousMb: rollup ? field(rollup, "Anonymous") : null,
    fileMb: rollup
      ? Math.round(((field(rollup, "Rss") ?? 0) - (field(rollup, "Anonymous") ?? 0)) * 10) / 10
      : null,
  };
}

/** Just VmRSS in MB, or null. */
export async function readRssMb(pid: number = Deno.pid): Promise<number | null> {
  return (await readProcessMemory(pid))?.rssMb ?? null;
}

/**
 * Samples `pid`'s RSS every `intervalMs` until `stop()`; `stop()` gives the highest sample (MB),
 * e.g. around a load phase: `const s = sampleRss(pid); await load(); const peak = await s.stop();`.
 */
export function sampleRss(
  pid: number,
  intervalMs = 200,
): { stop(): Promise<number | null> } {
  let peak: number | null = null;
  let running = true;
  const loop = (async () => {
    while (running) {
      const rss = await readRssMb(pid);
      if (rss !== null && (peak === null || rss > peak)) peak = rss;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const last = await readRssMb(pid);
      if (last !== null && (peak === null || last > peak)) peak = last;
      return peak;
    },
  };
}

if (import.meta.main) {
  const pid = Number(Deno.args[0] ?? Deno.pid);
  console.log(JSON.stringify(await readProcessMemory(pid)));
}
