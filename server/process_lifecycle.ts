/**
 * How the server process stops: on SIGTERM or SIGINT, and when the launcher that started it
 * (`npx -y deno@2 task start`, `deno task start`) is gone.
 *
 * Why the launcher is watched (measured on Linux, npm 10, Deno 2.9): `npx -y deno@2 task start`
 * is four processes, `npm exec deno@2 task start` → `sh -c 'deno' task start` → `deno task
 * start` → `deno run … main.ts` (the server). A SIGTERM or SIGINT to the npx process is passed by
 * npm to its `sh` child only; `sh` dies of SIGTERM without passing it on (SIGINT: below), and
 * `deno task` — which does forward both signals to the server — never receives one. (Ctrl-C in a
 * terminal signals the whole process group, the server included.) The server kept running,
 * holding its port, under an orphaned `deno task`. A supervisor that signals the process it
 * started (systemd with `KillMode=process`, pm2, a Procfile runner, a test harness) sent exactly
 * that. So, on Linux, the server looks up the chain of launcher processes above it (each a `deno
 * … task`, a shell or npm/npx running `deno … task`) and stops gracefully, like on SIGTERM, once
 * any of them is gone.
 * Launchers outside that pattern (an interactive shell, systemd, `docker run`) are not watched: a
 * server started from a shell that then exits keeps running. Elsewhere than Linux (no /proc) only
 * the signals apply.
 *
 * SIGINT to the npx process is harder: npm passes it to `sh`, and Debian's `sh` (dash) catches
 * SIGINT while it waits for a command and only acts on it once the command has ended (it then
 * exits as if killed by SIGINT, if the command was) — so nothing ends, and nothing else tells the
 * server. What can be seen is that the shell woke up: a shell blocked in `wait` for its one child
 * is woken only by a signal it catches (SIGINT, or SIGCHLD when that child stops, continues or
 * ends; `SigCgt` in /proc shows these two), and each wake-up counts one more voluntary context
 * switch in /proc/PID/status. So a launcher shell that catches SIGINT and has woken up while its
 * child is still running and not stopped is taken as signalled with SIGINT (on the next look,
 * half a second later, unless a pause came between), and the server stops. A pause of the
 * whole process group (Ctrl-Z stops it, and the shell wakes on SIGCHLD when `fg` resumes it) is
 * recognised by SIGCONT reaching this process too, or by the watcher's own late tick, and the
 * count is read afresh instead.
 */
import type { LogFields, Logger } from "../domain/shared/logger.ts";

export interface Launcher {
  pid: number;
  startTime: string;
  /** A shell (`sh -c …`) that catches SIGINT: watched for wake-ups (see above). */
  shell: boolean;
  /** The process it launched (the next one down the chain, or this server). */
  childPid: number;
  /** A shell's wake-ups when it was found (-1 for other launchers). */
  wakeups: number;
}

/** Ancestors of this process that launched it, nearest first (Linux only; [] elsewhere). */
export async function findLaunchers(): Promise<Launcher[]> {
  const launchers: Launcher[] = [];
  let stat = await readStat("self");
  let childPid = Deno.pid;
  for (let depth = 0; stat && depth < 8; depth++) {
    const parent = stat.ppid;
    if (parent <= 1) break;
    const parentStat = await readStat(String(parent));
    const argv = await readCmdline(parent);
    if (!parentStat || !isLauncher(argv)) break;
    const status = isShell(argv) ? await readStatus(parent) : null;
    const shell = status?.catchesSigint === true;
    launchers.push({
      pid: parent,
      startTime: parentStat.startTime,
      shell,
      childPid,
      wakeups: shell ? status!.wakeups : -1,
    });
    stat = parentStat;
    childPid = parent;
  }
  return launchers;
}

/** `sh -c …`, `dash -c …`, `bash -c …`. */
export function isShell(argv: string[]): boolean {
  return /(^|\/)(sh|dash|bash|zsh|ash|ksh)$/.test(argv[0] ?? "") && argv.includes("-c");
}

/** Whether a process catches SIGINT, and how many times it has gone to sleep (wake-ups). */
async function readStatus(
  pid: number,
): Promise<{ catchesSigint: boolean; wakeups: number; stopped: boolean } | null> {
  try {
    const text = await Deno.readTextFile(`/proc/${pid}/status`);
    const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, "m").exec(text)?.[1] ?? "";
    const caught = BigInt(`0x${field("SigCgt") || "0"}`);
    return {
      catchesSigint: (caught & (1n << 1n)) !== 0n, // bit (signal number − 1); SIGINT is 2
      wakeups: Number(field("voluntary_ctxt_switches") || 0),
      stopped: /^[Tt]/.test(field("State")),
    };
  } catch {
    return null;
  }
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

/** A live process's parent and start time; null once it is gone (or a zombie: dead, not reaped). */
async function readStat(pid: string): Promise<{ ppid: number; startTime: string } | null> {
  try {
    const text = await Deno.readTextFile(`/proc/${pid}/stat`);
    // "pid (comm) state ppid …": comm may hold spaces and parentheses; fields follow the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z" || fields[0] === "X") return null;
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
 * Calls `onGone` once, when any of the launchers has exited or a launcher shell was signalled
 * with SIGINT (checked every `everyMs`). The timer never keeps the process alive. Returns a
 * function that stops watching.
 */
export function watchLaunchers(
  launchers: Launcher[],
  onGone: (pid: number, how: "exited" | "SIGINT") => void,
  everyMs = 500,
): () => void {
  if (launchers.length === 0) return () => {};
  let done = false;
  let lastTick = performance.now();
  let resumedAt = -Infinity;
  /** Each launcher shell's wake-ups when last read (from the start); -1 = read afresh next tick. */
  const wakeups = new Map<number, number>(
    launchers.filter((l) => l.shell).map((l) => [l.pid, l.wakeups]),
  );
  /** A shell seen woken on the last tick: taken as signalled on this one unless a pause came. */
  let suspect: number | null = null;
  const readAfresh = () => {
    suspect = null;
    for (const pid of wakeups.keys()) wakeups.set(pid, -1);
  };
  // `fg` after Ctrl-Z continues the whole process group: the shell woke on SIGCHLD, not SIGINT.
  const onContinued = () => {
    resumedAt = performance.now();
    readAfresh();
  };
  let listening = false;
  if (wakeups.size > 0) {
    try {
      Deno.addSignalListener("SIGCONT", onContinued);
      listening = true;
    } catch { /* not on this platform */ }
  }
  const finish = (pid: number, how: "exited" | "SIGINT") => {
    unwatch();
    onGone(pid, how);
  };
  const timer = setInterval(async () => {
    const now = performance.now();
    // A late tick (this process was paused, or starved) or a recent SIGCONT: counts read afresh.
    const late = now - lastTick > 3 * everyMs || now - resumedAt < 3 * everyMs;
    lastTick = now;
    if (late) readAfresh();
    for (const launcher of launchers) {
      const stat = await readStat(String(launcher.pid));
      if (done) return;
      // Gone, or its pid reused by another process (a different start time).
      if (!stat || stat.startTime !== launcher.startTime) return finish(launcher.pid, "exited");
      if (!launcher.shell) continue;
      // Woken on the last tick, and no pause since: the shell is holding a SIGINT.
      if (suspect === launcher.pid) return finish(launcher.pid, "SIGINT");
      const [status, child] = await Promise.all([
        readStatus(launcher.pid),
        readStatus(launcher.childPid),
      ]);
      if (done) return;
      if (!status || !child || child.stopped) {
        wakeups.set(launcher.pid, -1);
        continue;
      }
      const before = wakeups.get(launcher.pid) ?? -1;
      wakeups.set(launcher.pid, status.wakeups);
      if (before >= 0 && status.wakeups > before) suspect = launcher.pid;
    }
  }, everyMs);
  Deno.unrefTimer(timer);
  const unwatch = () => {
    done = true;
    clearInterval(timer);
    if (listening) {
      listening = false;
      Deno.removeSignalListener("SIGCONT", onContinued);
    }
  };
  return unwatch;
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
  options: { deadlineMs: number; watchLauncher: boolean; launchers?: Launcher[] },
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
    // Found before the service started (main.ts), so a shell's wake-up count is from then.
    const launchers = options.launchers ?? await findLaunchers();
    if (launchers.length > 0) {
      logger.info("watching the launcher", {
        pids: launchers.map((l) => l.pid).join(" "),
        shells: launchers.filter((l) => l.shell).map((l) => l.pid).join(" "),
      });
      watchLaunchers(
        launchers,
        (pid, how) =>
          begin(
            how === "exited" ? { launcherExited: pid } : { launcherSignalled: pid, signal: how },
          ),
      );
    }
  }
}
