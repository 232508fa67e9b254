/**
 * A run's progress: status, a bar, the counters and what the status means. The run page shows it
 * inside a polling element while the run is active; `/progress` answers it alone (no layout) for
 * app.js to swap in every second, with `data-done="true"` once the run is terminal.
 */
import type { LeadSearchRun } from "../../../domain/lead_search/lead_search_run.ts";
import { points } from "../layout.tsx";
import { isActive, StatusBadge } from "./parts.tsx";
import { count } from "../numbers.ts";

export function RunProgress(props: { run: LeadSearchRun }) {
  const { run } = props;
  const percent = Math.round((run.deliveredCount / run.count) * 100);
  return (
    <div class="lead-progress" data-done={isActive(run) ? "false" : "true"}>
      <div class="lead-progress-head">
        <StatusBadge status={run.status} />
        <span class="lead-progress-counts">
          <strong>{points(run.deliveredCount)}</strong> of {count(run.count, "lead")} delivered
          {" · "}
          <strong>{points(run.creditsCharged)}</strong> points charged
        </span>
      </div>
      <progress
        max={run.count}
        value={run.deliveredCount}
        aria-label={`${run.deliveredCount} of ${count(run.count, "lead")} delivered`}
      >
        {percent}%
      </progress>
      <p class="muted lead-progress-note">{statusNote(run)}</p>
    </div>
  );
}

function statusNote(run: LeadSearchRun): string {
  switch (run.status) {
    case "queued":
      return "Waiting for a runner to pick it up; that usually takes about a second.";
    case "processing":
      return "Delivering leads in pages of up to 25; each page is charged as it arrives.";
    case "cancelling":
      return "Stopping at its next page. Only the leads already delivered are charged.";
    case "completed":
      return run.deliveredCount === run.count
        ? `All ${count(run.count, "lead")} delivered.`
        : `The directory had no further matches: ${points(run.deliveredCount)} of ${
          points(run.count)
        } delivered. What was not used went back to your balance.`;
    case "cancelled":
      return "Cancelled. Only delivered leads were charged; the rest of the reservation went back to your balance.";
    case "failed":
      return "The directory could not answer, so the run stopped. Delivered leads stay charged; the rest went back to your balance. Continue the run to try again.";
  }
}
