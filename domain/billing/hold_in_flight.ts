/**
 * Points held in this process for billed calls in flight: a call that may cost at most N points
 * holds N from before it reads the balance until its charge is recorded (or it ends without one),
 * so concurrent calls of one workspace are refused when the balance minus what the others in
 * flight may still spend cannot pay their worst case, before any provider traffic. (Without it,
 * five simultaneous finds on a balance for one each passed the check, each ran a full SMTP
 * session, and four then failed to charge.)
 *
 * Why the order is safe: a call takes its snapshot of the others' holds before it reads the
 * balance, and a call lets its hold go only after its charge committed. So every other call is
 * either counted in the snapshot, or its charge is already in the balance read after it: a point
 * is never counted twice as free. (A charge that commits between snapshot and read is counted
 * twice as spent: a transient, uncharged refusal, never an overdraft of work.)
 *
 * In process only, like the budget it protects: several instances of the service share the
 * ledger but not these holds, so between instances the ledger's own check at charge time stays
 * the last word (a lookup that cannot be charged is not delivered). Kept per database (tests run
 * several in one process) and per workspace; an entry is removed when its last hold ends.
 */
const holds = new WeakMap<object, Map<string, number>>();

export interface InFlightHold {
  /** What the workspace's other calls in flight held when this one was taken. */
  others: number;
  /** Ends the hold (again: nothing happens). */
  release(): void;
}

export function holdInFlight(
  scope: object,
  input: { workspaceId: string; amount: number },
): InFlightHold {
  const { workspaceId, amount } = input;
  let byWorkspace = holds.get(scope);
  if (!byWorkspace) holds.set(scope, byWorkspace = new Map());
  const map = byWorkspace;
  const others = map.get(workspaceId) ?? 0;
  map.set(workspaceId, others + amount);
  let released = false;
  return {
    others,
    release() {
      if (released) return;
      released = true;
      const left = (map.get(workspaceId) ?? 0) - amount;
      if (left > 0) map.set(workspaceId, left);
      else map.delete(workspaceId);
    },
  };
}

/** What a workspace's calls in flight hold now (for tests and diagnostics). */
export function heldInFlight(scope: object, workspaceId: string): number {
  return holds.get(scope)?.get(workspaceId) ?? 0;
}
