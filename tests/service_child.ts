/**
 * The service as a child process, the way an operator or a platform runs it: `deno run -A
 * main.ts` (no other flag: deno.json enables the unstable APIs) from the project directory, its
 * JSON log lines (stdout) and stderr kept for the caller to read. Used by the two-instances test,
 * `deno task deploy:check` and `deno task check:stop`.
 */
export const PROJECT_DIR = new URL("../", import.meta.url).pathname;

export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a child needs of this machine's environment to find deno's caches and nothing more. */
export function machineEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME", "TMPDIR", "NO_COLOR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export interface ServiceChildOptions {
  /** Run with only these variables (and `machineEnv()`), as a platform would. Default true. */
  clearEnv?: boolean;
  /** Print every log line and stderr line, prefixed with the label. */
  show?: boolean;
  /** Command instead of `deno run -A main.ts` (e.g. `deno task start`). */
  command?: { cmd: string; args: string[] };
}

export class ServiceChild {
  readonly lines: string[] = [];
  readonly stderr: string[] = [];
  readonly process: Deno.ChildProcess;
  readonly status: Promise<Deno.CommandStatus>;
  readonly #drained: Promise<void>;

  constructor(
    readonly label: string,
    env: Record<string, string>,
    options: ServiceChildOptions = {},
  ) {
    const clearEnv = options.clearEnv ?? true;
    const command = options.command ?? { cmd: Deno.execPath(), args: ["run", "-A", "main.ts"] };
    this.process = new Deno.Command(command.cmd, {
      args: command.args,
      cwd: PROJECT_DIR,
      env: { ...(clearEnv ? machineEnv() : {}), ...env },
      clearEnv,
      stdout: "piped",
      stderr: "piped",
      // Its own process group: a launcher and everything it starts can be found and ended.
      detached: true,
    }).spawn();
    this.status = this.process.status;
    const read = async (stream: ReadableStream<Uint8Array>, into: string[], tag: string) => {
      let rest = "";
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
        rest += chunk;
        const parts = rest.split("\n");
        rest = parts.pop()!;
        for (const line of parts) {
          into.push(line);
          if (options.show) console.error(`[${this.label}${tag}] ${line}`);
        }
      }
      if (rest) into.push(rest);
    };
    this.#drained = Promise.all([
      read(this.process.stdout, this.lines, "").catch(() => {}),
      read(this.process.stderr, this.stderr, " stderr").catch(() => {}),
    ]).then(() => {});
  }

  get pid(): number {
    return this.process.pid;
  }

  /** Log records with this message. */
  logged(msg: string): Record<string, unknown>[] {
    return this.lines.flatMap((line) => {
      try {
        const record = JSON.parse(line);
        return record.msg === msg ? [record] : [];
      } catch {
        return [];
      }
    });
  }

  /** Everything the process printed, for a failure message. */
  output(): string {
    return [...this.lines, ...this.stderr].join("\n");
  }

  /** The port from the "listening" log line, once it is there. */
  async listeningPort(timeoutMs = 60_000): Promise<number> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const [record] = this.logged("listening");
      if (record) return Number(record.port);
      const exited = await Promise.race([
        this.status.then(() => true),
        sleep(50).then(() => false),
      ]);
      if (exited) break;
    }
    throw new Error(`${this.label} did not start listening:\n${this.output().slice(-4000)}`);
  }

  /** Waits for /healthz to answer 200 on `base`. */
  async waitHealthy(base: string, timeoutMs = 60_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    let exited = false;
    this.status.then(() => exited = true);
    while (Date.now() < end && !exited) {
      try {
        const res = await fetch(`${base}/healthz`);
        await res.body?.cancel();
        if (res.ok) return;
      } catch { /* not up yet */ }
      await sleep(100);
    }
    throw new Error(`${this.label} did not become healthy:\n${this.output().slice(-4000)}`);
  }

  /** Sends a signal to the process (or to its whole process group with `group`). */
  signal(signal: Deno.Signal, group = false): void {
    try {
      Deno.kill(group ? -this.pid : this.pid, signal);
    } catch { /* already gone */ }
  }

  /** Signals and waits for the exit (and for its output to be read). */
  async kill(signal: Deno.Signal = "SIGKILL"): Promise<Deno.CommandStatus> {
    this.signal(signal);
    const status = await this.status;
    await this.#drained;
    return status;
  }

  /** Ends the whole process group (whatever is left of a launcher and its children). */
  killGroup(): void {
    this.signal("SIGKILL", true);
  }

  async exited(): Promise<Deno.CommandStatus> {
    const status = await this.status;
    await this.#drained;
    return status;
  }
}

/** A JSON API call: `{ status, body }`. */
export async function api(
  base: string,
  apiKey: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      Authorization: `Bearer ${apiKey}`,
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch { /* not JSON */ }
  return { status: res.status, body, headers: res.headers };
}

export async function until<T>(
  what: string,
  timeoutMs: number,
  look: () => Promise<T | null | undefined | false>,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const seen = await look();
    if (seen) return seen;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
