/**
 * Times on the overview, key and do-not-contact pages, in UTC (the server does not know the
 * member's time zone) and said so.
 */

/** `2026-11-23 19:58 UTC`, or a dash. */
export function When(props: { iso: string | null; empty?: string }) {
  if (!props.iso) return <span class="muted">{props.empty ?? "—"}</span>;
  return <time datetime={props.iso}>{props.iso.slice(0, 16).replace("T", " ")} UTC</time>;
}

/** `2026-11-23`, with the full time on hover. */
export function Day(props: { iso: string | null; empty?: string }) {
  if (!props.iso) return <span class="muted">{props.empty ?? "—"}</span>;
  return (
    <time datetime={props.iso} title={props.iso.slice(0, 16).replace("T", " ") + " UTC"}>
      {props.iso.slice(0, 10)}
    </time>
  );
}

/** `Mar 3` for a `YYYY-MM-DD` day. */
export function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

/** `Tue, Mar 3` for a `YYYY-MM-DD` day. */
export function longDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    weekday: "short",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

/**
 * The start (00:00 UTC) of a `YYYY-MM-DD` day typed in a form, or an invalid Date when the text
 * is no day of the calendar: `2027-02-30` is refused, not rolled over to March 2 as `Date` would.
 */
export function dayStart(day: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const start = new Date(match ? `${day}T00:00:00Z` : NaN);
  if (!match || Number.isNaN(start.getTime())) return new Date(NaN);
  const [year, month, date] = match.slice(1).map(Number);
  const real = start.getUTCFullYear() === year && start.getUTCMonth() + 1 === month &&
    start.getUTCDate() === date;
  return real ? start : new Date(NaN);
}
