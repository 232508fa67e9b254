/**
 * At most `maxPerHost` SMTP sessions open to one MX host at a time, across every lookup of this
 * process: mail providers block IPs that open many sessions at once (real verifiers learned it
 * through bans). A lookup that finds the host busy waits its turn, first come first served, for
 * as long as its own deadline allows (the signal); a wait that runs out rejects with the
 * signal's reason and the lookup answers `unavailable` (uncharged).
 */

export interface HostSessionSlots {
  /** Waits for a free slot at `host`; call the returned function once the session is over. */
  acquire(host: string, signal: AbortSignal): Promise<() => void>;
  /** Sessions open now at `host` (benchmarks and tests). */
  active(host: string): number;
}

export function createHostSessionSlots(maxPerHost: number): HostSessionSlots {
  if (!Number.isInteger(maxPerHost) || maxPerHost < 1) {
    throw new RangeError("maxPerHost must be a positive integer");
  }
  const hosts = new Map<string, { active: number; waiting: Array<() => void> }>();

  const release = (host: string) => {
    const state = hosts.get(host);
    if (!state) return;
    const next = state.waiting.shift();
    if (next) return next(); // the slot passes straight to the next in line
    state.active--;
    if (state.active === 0) hosts.delete(host);
  };

  const slot = (host: string) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release(host);
    };
  };

  return {
    acquire(host, signal) {
      const key = host.toLowerCase();
      if (signal.aborted) return Promise.reject(signal.reason);
      let state = hosts.get(key);
      if (!state) hosts.set(key, state = { active: 0, waiting: [] });
      if (state.active < maxPerHost) {
        state.active++;
        return Promise.resolve(slot(key));
      }
      const queue = state.waiting;
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal.removeEventListener("abort", onAbort);
          resolve(slot(key));
        };
        const onAbort = () => {
          const at = queue.indexOf(grant);
          if (at >= 0) queue.splice(at, 1);
          reject(signal.reason);
        };
        queue.push(grant);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
    active(host) {
      return hosts.get(host.toLowerCase())?.active ?? 0;
    },
  };
}
