/**
 * How the server process stops: on SIGTERM or SIGINT, and when the launcher that started it
 * (`npx -y deno@2 task start`, `deno task start`) is gone.
 *
 * Why the launcher is watched (measured on Linux, npm 10, Deno 2.9): `npx -y deno@2 task start`
 * is four processes, `npm exec deno@2 task start` → `sh -c 'deno' task start` → `deno task
 * start` → `deno run … main.ts` (the server). A SIGTERM or SIGINT to the npx process is passed by
 * npm to its `sh` child only; `sh` dies of it without passing it on, and `deno task` — which does
 * forward both signals to the server — never receives one. The server kept running, holding its
 * port, under an orphaned `deno task`. A supervisor that signals the process it started (systemd
 * with `KillMode=process`, pm2, a Procfile runner, a test harness) sent exactly that. So, on Linux,
 * the server looks up the chain of launcher processes above it (each a `deno … task`, a shell or
 * npm/npx running `deno … task`) and stops gracefully, like on SIGTERM, once any of them is gone.
 * Launchers outside that pattern (an interactive shell, systemd, `docker run`) are not watched: a
 * server started from a shell that then exits keeps running. Elsewhere than Linux (no /proc) only
 * the signals apply.
 */
import type { LogFields, Logger } from "./domain/shared/logger.ts";

/** Ancestors of this process that launched it, nearest first (Linux only; [] elsewhere). */
export async function findLaunchers(): Promise<{ pid: number; startTime: string }[]> {
  const launchers: { pid: number; startTime: string }[] = [];
  let stat = await readStat("self");
  for (let depth = 0; stat && depth < 8; depth++) {
    const parent = stat.ppid;
    if (parent <= 1) break;
    const parentStat = await readStat(String(parent));
    if (!parentStat || !isLauncher(await readCmdline(parent))) break;
    launchers.push({ pid: parent, startTime: parentStat.startTime });
    stat = parentStat;
  }
  return launchers;
}

/**
 * A launcher runs `deno … task`: `deno task start`, `sh -c 'deno' task start`, `npm exec deno@2
 * task start`, `node …/npx-cli.js -y deno@2 task start`.
 */
export function isLauncher(argv: string[]): boolean {
  const words = argv.flatMap((arg) => arg.split(/\s+/)).map((w) => w.replace(/^['"]|['"]$/g, ""));
  const runsDeno = words.some((w) => /(^|\/)deno(@[\w.^~-]+)?$/.test(w));
  return runsDeno && words.includes("task");
}

async function readStat(pid: string): Promise<{ ppid: number; startTime: string } | null> {
  try {
    const text = await Deno.readTextFile(`/proc/${pid}/stat`);
    // "pid (comm) state ppid …": comm may hold spaces and parentheses; fields follow the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), startTime: fields[19] };
  } catch {
    return null;
  }
}

async function readCmdline(pid: number): Promise<string[]> {
  try {
    return (await Deno.readTextFile(`/proc/${pid}/cmdline`)).split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Calls `onGone` once, when any of the launchers has exited (checked every `everyMs`). The timer
 * never keeps the process alive. Returns a function that stops watching.
 */
export function watchLaunchers(
  launchers: { pid: number; startTime: string }[],
  onGone: (pid: number) => void,
  everyMs = 500,
): () => void {
  if (launchers.length === 0) return () => {};
  let done = false;
  const timer = setInterval(async () => {
    for (const launcher of launchers) {
      const stat = await readStat(String(launcher.pid));
      if (done) return;
      // Gone, or its pid reused by another process (a different start time).
      if (!stat || stat.startTime !== launcher.startTime) {
        done = true;
        clearInterval(timer);
        onGone(launcher.pid);
        return;
      }
    }
  }, everyMs);
  Deno.unrefTimer(timer);
  return () => {
    done = true;
    clearInterval(timer);
  };
}

/**
 * Stops the service on SIGTERM, SIGINT or the launcher's exit, and exits: 0 after a graceful
 * stop, 1 if it did not finish within `deadlineMs` (then the process exits anyway). A second
 * signal changes nothing (Ctrl-C in a terminal reaches the server twice: from the terminal and
 * forwarded by `deno task`).
 */
export async function stopOnSignals(
  stop: () => Promise<void>,
  logger: Logger,
  options: { deadlineMs: number; watchLauncher: boolean },
): Promise<void> {
  let stopping = false;
  const begin = (reason: LogFields) => {
    if (stopping) return;
    stopping = true;
    logger.info("stop requested", reason);
    const deadline = setTimeout(() => {
      logger.error("stop did not finish in time; exiting", { deadlineMs: options.deadlineMs });
      Deno.exit(1);
    }, options.deadlineMs);
    stop().then(
      () => {
        clearTimeout(deadline);
        Deno.exit(0);
      },
      (error) => {
        logger.error("stop failed", { errorName: (error as Error)?.name ?? typeof error });
        Deno.exit(1);
      },
    );
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => begin({ signal }));
  }
  if (options.watchLauncher && Deno.build.os === "linux") {
    const launchers = await findLaunchers();
    if (launchers.length > 0) {
      logger.info("watching the launcher", { pids: launchers.map((l) => l.pid).join(" ") });
      watchLaunchers(launchers, (pid) => begin({ launcherExited: pid }));
    }
  }
}
