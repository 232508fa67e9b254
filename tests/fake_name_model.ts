import type { NameModel, NameModelInput, NameReading } from "../model/types.ts";

/**
 * A stand-in model for API tests: reads every name given-first with the last word as surname,
 * at a fixed confidence. It can be made slow (to hold a request in flight) or to fail once
 * (to inject a 500 part-way through a batch).
 */
export class FakeNameModel implements NameModel {
  readonly version = "fake-1";
  readonly threshold = 0.5;
  confidence = 0.9;
  calls = 0;
  /** Throw on this call number (1-based), once. */
  failOnCall: number | null = null;
  /** While set, every call waits for it. */
  gate: Promise<void> | null = null;

  async readMany(inputs: readonly NameModelInput[]): Promise<NameReading[]> {
    this.calls++;
    if (this.gate) await this.gate;
    if (this.failOnCall === this.calls) {
      this.failOnCall = null;
      throw new Error("injected model fault");
    }
    return inputs.map(({ words, constraint }) => ({
      order: constraint?.order ?? "given-first",
      split: constraint?.split ?? words.length - 1,
      confidence: this.confidence,
      bothOrders: false,
    }));
  }
}
