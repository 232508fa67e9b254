/**
 * Numbers as the app writes them, the same on every page and in every file it hands out: points
 * grouped by thousands, a confidence to two decimals, and a count with its noun agreeing
 * ("1 row", "2 rows", never "1 rows").
 */

const GROUPED = new Intl.NumberFormat("en-US");

/** `12,345`. */
export function grouped(value: number): string {
  return GROUPED.format(value);
}

/**
 * A confidence between 0 and 1 to two decimals (`0.98`): what the answer's precision supports,
 * and what a person compares at a glance. No confidence reads as a dash.
 */
export function confidence(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return value.toFixed(2);
}

/** "1 row", "2 rows", "1,000 rows"; `plural` for a noun that does not take an "s". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${grouped(n)} ${n === 1 ? singular : plural}`;
}

/** Only the noun, for a sentence that sets the number itself apart ("<strong>1</strong> row"). */
export function noun(n: number, singular: string, plural = `${singular}s`): string {
  return n === 1 ? singular : plural;
}
