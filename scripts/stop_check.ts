/**
 * `deno task check:stop`: how the service stops, measured on real processes (a supervisor's
 * SIGTERM or a terminal's Ctrl-C must neither lose an answer nor leave a process behind).
 *
 * For each way of starting it — `npx -y deno@2 task start` (the README's two commands), `deno
 * task start`, and the server itself (`deno run -A main.ts`) — and each of SIGTERM and SIGINT sent
 * to the process that was started (what a supervisor or Ctrl-C in a terminal does): a billed
 * request is in progress when the signal is sent (its body still arriving); the request must be
 * answered (200, charged once, `Connection: close`) and the server process must have exited, its
 * port free, within 5 s of the signal. Then, with `IDLE_TIMEOUT_SECONDS=2`, an idle keep-alive
 * connection must be closed by the server about 2 s after its last answer.
 *
 * Prints one line per case with the measured times, then `N passed, N failed`; exit 1 on any
 * failure. The database: a fresh one on the Postgres of `STOP_CHECK_POSTGRES_URL` (a server
 * URL, e.g. postgres://postgres@127.0.0.1:5432, with a database `test` to connect to) when set,
 * otherwise the embedded default in a temporary DATA_DIR. `STOP_CHECK_SHOW=1` prints the
 * processes' logs. `--no-npx` leaves out the npx cases (no npm on the machine, or no registry).
 *
 * tests/stop_test.ts runs the same cases (npx only when it is available) in the test suite.
 */
import { createThrowawayDatabase } from "../tests/throwaway_database.ts";
import { freePort, ServiceChild, sleep } from "../tests/service_child.ts";

export type Launcher = "npx" | "deno task" | "server";

export const STOP_LIMIT_MS = 5_000;
const KEY = "svc_sk_" + "5e".repeat(24);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The command that starts the service for each launcher. */
function command(launcher: Launcher): { cmd: string; args: string[] } {
  switch (launcher) {
    case "npx":
      return { cmd: "npx", args: ["-y", "deno@2", "task", "start"] };
    case "deno task":
      return { cmd: Deno.execPath(), args: ["task", "start"] };
    case "server":
      return { cmd: Deno.execPath(), args: ["run", "-A", "main.ts"] };
  }
}

interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  pgrp: number;
}

async function procStat(pid: number | string): Promise<ProcStat | null> {
  try {
    const text = await Deno.readTextFile(`/proc/${pid}/stat`);
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { pid: Number(pid), state: fields[0], ppid: Number(fields[1]), pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}

/** A process is alive while it exists and is not a zombie. */
async function alive(pid: number): Promise<boolean> {
  const stat = await procStat(pid);
  return stat !== null && stat.state !== "Z" && stat.state !== "X";
}

/** Live processes of a process group, with their command lines. */
async function groupMembers(pgrp: number): Promise<{ pid: number; argv: string[] }[]> {
  const members: { pid: number; argv: string[] }[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await procStat(entry.name);
    if (!stat || stat.pgrp !== pgrp || stat.state === "Z") continue;
    try {
      const argv = (await Deno.readTextFile(`/proc/${entry.name}/cmdline`)).split("\0")
        .filter(Boolean);
      members.push({ pid: stat.pid, argv });
    } catch { /* gone meanwhile */ }
  }
  return members;
}

/** The server process (`deno run … main.ts`) under a launcher. */
async function serverPid(child: ServiceChild, launcher: Launcher): Promise<number> {
  if (launcher === "server") return child.pid;
  const members = await groupMembers(child.pid);
  const server = members.find((m) =>
    m.argv.includes("run") && m.argv.some((a) => a.endsWith("main.ts"))
  );
  if (!server) {
    throw new Error(`no server process under ${launcher}: ${JSON.stringify(members)}`);
  }
  return server.pid;
}

async function portOpen(port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

/** Reads from a raw connection until the server closes it. */
async function readUntilClosed(conn: Deno.Conn): Promise<string> {
  const buffer = new Uint8Array(8192);
  let text = "";
  for (;;) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) break;
    text += decoder.decode(buffer.subarray(0, n));
  }
  try {
    conn.close();
  } catch { /* closed */ }
  return text;
}

export interface StopCaseResult {
  launcher: Launcher;
  signal: Deno.Signal;
  /** Signal → the server process gone. */
  stopMs: number;
  /** Signal → the request in progress answered and its connection closed (its body ends ~1 s in). */
  answeredMs: number;
  /** Signal → every process that was started gone (launcher included). */
  allGoneMs: number | null;
  /** The in-flight request's answer: status line and whether it was charged. */
  inFlight: { status: number; pointsCharged: number | null; connectionClose: boolean };
  /** The server's exit code when it is the started process, else the launcher's. */
  exitCode: number | null;
  /** The server's own account of why it stopped. */
  stopReason: Record<string, unknown> | null;
}

/**
 * Starts the service with `launcher`, sends a billed request whose body is still arriving, sends
 * `signal` to the started process, completes the body after `bodyDelayMs`, and measures.
 */
export async function runStopCase(
  launcher: Launcher,
  signal: Deno.Signal,
  env: Record<string, string>,
  options: { show?: boolean; bodyDelayMs?: number } = {},
): Promise<StopCaseResult> {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = new ServiceChild(`${launcher} ${signal}`, {
    ...env,
    PORT: String(port),
    HOST: "127.0.0.1",
    SVC_BOOTSTRAP_KEY: KEY,
    SVC_BOOTSTRAP_POINTS: "1000",
    LOG_REQUESTS: "false",
  }, { command: command(launcher), show: options.show });
  try {
    await child.waitHealthy(base, 120_000);
    const server = await serverPid(child, launcher);
    const stoppedLine = () => [...child.logged("stop requested")][0] ?? null;

    // A billed request in progress: its head sent, half its body, the rest after the signal.
    const body = JSON.stringify({ name: "Ada Lovelace" });
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(encoder.encode(
      `POST /api/v1/name/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
        body.slice(0, 10),
    ));
    const answer = readUntilClosed(conn);
    await sleep(300);

    const signalled = performance.now();
    let answeredMs = -1;
    answer.then(() => answeredMs = performance.now() - signalled);
    child.signal(signal);
    const completeBody = (async () => {
      await sleep(options.bodyDelayMs ?? 1_000);
      await conn.write(encoder.encode(body.slice(10))).catch(() => {});
    })();
    let stopMs = -1;
    while (performance.now() - signalled < STOP_LIMIT_MS + 3_000) {
      if (!(await alive(server))) {
        stopMs = performance.now() - signalled;
        break;
      }
      await sleep(20);
    }
    let allGoneMs: number | null = null;
    while (performance.now() - signalled < STOP_LIMIT_MS + 3_000) {
      if ((await groupMembers(child.pid)).length === 0) {
        allGoneMs = performance.now() - signalled;
        break;
      }
      await sleep(20);
    }
    await completeBody;
    const text = await answer;
    const [head, payload = ""] = text.split("\r\n\r\n");
    let pointsCharged: number | null = null;
    try {
      pointsCharged = JSON.parse(payload).data?.pointsCharged ?? null;
    } catch { /* not JSON (e.g. chunked or cut) */ }
    const match = /"pointsCharged":(\d+)/.exec(payload);
    if (pointsCharged === null && match) pointsCharged = Number(match[1]);
    if (stopMs >= 0 && await portOpen(port)) throw new Error(`port ${port} still open`);
    const status = await Promise.race([child.exited(), sleep(1_000).then(() => null)]);
    return {
      launcher,
      signal,
      stopMs: Math.round(stopMs),
      answeredMs: Math.round(answeredMs),
      allGoneMs: allGoneMs === null ? null : Math.round(allGoneMs),
      inFlight: {
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        pointsCharged,
        connectionClose: /\r\nconnection: close/i.test(head),
      },
      exitCode: status?.code ?? null,
      stopReason: stoppedLine(),
    };
  } finally {
    child.killGroup();
    await Promise.race([child.exited(), sleep(5_000)]);
  }
}

/** What is wrong with a stop case, or null. */
export function stopCaseProblem(result: StopCaseResult): string | null {
  if (result.stopMs < 0) {
    return `the server was still running ${STOP_LIMIT_MS + 3_000} ms after ${result.signal}`;
  }
  if (result.stopMs > STOP_LIMIT_MS) return `the server stopped after ${result.stopMs} ms`;
  if (result.inFlight.status !== 200) {
    return `the request in progress was answered ${result.inFlight.status || "nothing"}`;
  }
  if (result.inFlight.pointsCharged !== 1) {
    return `the request in progress says pointsCharged ${result.inFlight.pointsCharged}`;
  }
  if (!result.inFlight.connectionClose) return "the last answer did not say Connection: close";
  if (result.allGoneMs === null || result.allGoneMs > STOP_LIMIT_MS) {
    return `processes of the ${result.launcher} launcher left after ${STOP_LIMIT_MS} ms`;
  }
  return null;
}

export function describeStopCase(result: StopCaseResult): string {
  const reason = result.stopReason
    ? Object.entries(result.stopReason)
      .filter(([k]) => k !== "time" && k !== "level" && k !== "msg")
      .map(([k, v]) => `${k} ${v}`).join(", ")
    : "?";
  const exit = result.exitCode ?? "?";
  const { status, pointsCharged } = result.inFlight;
  return `${result.launcher}, ${result.signal}: the request in progress answered ${status} ` +
    `(charged ${pointsCharged}) and closed after ${result.answeredMs} ms, the server gone after ` +
    `${result.stopMs} ms, every process started after ${result.allGoneMs ?? "?"} ms (exit ` +
    `${exit}); the server saw: ${reason}`;
}

/**
 * Starts the server with `IDLE_TIMEOUT_SECONDS=idleSeconds`, makes one keep-alive request and
 * measures how long after its answer the server closes the connection.
 */
export async function measureIdleClose(
  env: Record<string, string>,
  idleSeconds: number,
  options: { show?: boolean } = {},
): Promise<{ closedAfterMs: number; answered: boolean; stillOpenAt: number }> {
  const port = freePort();
  const child = new ServiceChild("idle", {
    ...env,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_REQUESTS: "false",
    IDLE_TIMEOUT_SECONDS: String(idleSeconds),
  }, { show: options.show });
  try {
    await child.waitHealthy(`http://127.0.0.1:${port}`, 120_000);
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(encoder.encode("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    // The answer (small, one read in practice), then silence until the server closes.
    const buffer = new Uint8Array(8192);
    const n = await conn.read(buffer);
    const answeredAt = performance.now();
    const answered = n !== null && /^HTTP\/1\.1 200/.test(decoder.decode(buffer.subarray(0, n)));
    const closed = readUntilClosed(conn).then(() => performance.now() - answeredAt);
    // Half-way through the timeout the connection is still open.
    const halfWay = await Promise.race([
      closed.then(() => false),
      sleep(idleSeconds * 500).then(() => true),
    ]);
    const closedAfterMs = await Promise.race([
      closed,
      sleep(idleSeconds * 1000 + 10_000).then(() => -1),
    ]);
    return {
      closedAfterMs: Math.round(closedAfterMs),
      answered,
      stillOpenAt: halfWay ? idleSeconds * 500 : -1,
    };
  } finally {
    child.killGroup();
    await Promise.race([child.exited(), sleep(5_000)]);
  }
}

/** Is `npx -y deno@2` usable here (npm present, the package cached or the registry reachable)? */
export async function npxAvailable(timeoutMs = 120_000): Promise<boolean> {
  try {
    const probe = new Deno.Command("npx", {
      args: ["-y", "deno@2", "--version"],
      stdout: "null",
      stderr: "null",
    }).spawn();
    const status = await Promise.race([probe.status, sleep(timeoutMs).then(() => null)]);
    if (!status) {
      try {
        probe.kill("SIGKILL");
      } catch { /* gone */ }
      return false;
    }
    return status.success;
  } catch {
    return false;
  }
}

/** A database for the service: a fresh one on `serverUrl`'s Postgres, or the embedded default. */
export async function stopCheckDatabase(serverUrl: string | null) {
  const dataDir = await Deno.makeTempDir({ prefix: "stop-check-" });
  if (!serverUrl) {
    return {
      env: { DATA_DIR: dataDir } as Record<string, string>,
      label: "embedded PGlite",
      drop: () => Deno.remove(dataDir, { recursive: true }).catch(() => {}),
    };
  }
  const base = serverUrl.replace(/\/$/, "");
  const database = await createThrowawayDatabase(`${base}/test`, "svc_stop_check_");
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url } as Record<string, string>,
    label: `Postgres (${database.name})`,
    drop: async () => {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
      await database.drop();
    },
  };
}

if (import.meta.main) {
  const show = Boolean(Deno.env.get("STOP_CHECK_SHOW"));
  const withNpx = !Deno.args.includes("--no-npx");
  const database = await stopCheckDatabase(Deno.env.get("STOP_CHECK_POSTGRES_URL") || null);
  console.log(`database: ${database.label}`);
  let passed = 0;
  let failed = 0;
  const report = (ok: boolean, line: string) => {
    console.log(`${ok ? "ok  " : "FAIL"} ${line}`);
    if (ok) passed++;
    else failed++;
  };
  try {
    const launchers: Launcher[] = ["server", "deno task"];
    if (withNpx) {
      if (await npxAvailable()) launchers.push("npx");
      else report(false, "npx -y deno@2 is not available here (run with --no-npx to leave it out)");
    }
    for (const launcher of launchers) {
      for (const signal of ["SIGTERM", "SIGINT"] as const) {
        try {
          const result = await runStopCase(launcher, signal, database.env, { show });
          const problem = stopCaseProblem(result);
          report(problem === null, describeStopCase(result) + (problem ? ` — ${problem}` : ""));
        } catch (error) {
          report(false, `${launcher}, ${signal}: ${(error as Error).message.slice(0, 2000)}`);
        }
      }
    }
    try {
      const idle = await measureIdleClose(database.env, 2, { show });
      const ok = idle.answered && idle.stillOpenAt > 0 && idle.closedAfterMs >= 1_900 &&
        idle.closedAfterMs <= 3_500;
      report(
        ok,
        `IDLE_TIMEOUT_SECONDS=2: an idle keep-alive connection closed by the server ` +
          `${idle.closedAfterMs} ms after its answer (still open at ${idle.stillOpenAt} ms)`,
      );
    } catch (error) {
      report(false, `idle timeout: ${(error as Error).message.slice(0, 2000)}`);
    }
  } finally {
    await database.drop();
  }
  console.log(`${passed} passed, ${failed} failed`);
  Deno.exit(failed === 0 ? 0 : 1);
}
