/** Time as a port, so tests can move it (idempotency expiry, key expiry, rate-limit windows). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock the test moves by hand. */
export class FakeClock implements Clock {
  #ms: number;
  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.#ms = startMs;
  }
  now(): number {
    return this.#ms;
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}
