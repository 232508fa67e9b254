/**
 * An `sql` whose tagged-template statements are explained instead of run: a verb runs its own SQL,
 * each plan (parsed JSON) goes to `onPlan`, and the verb sees `rows` as its answer. Plan tests use
 * it to check, on a new database with no statistics, that a lookup uses its indexes.
 */
import type { Sql } from "../domain/stores/database.ts";

export function explaining(sql: Sql, onPlan: (plan: unknown) => void, rows: unknown[] = []): Sql {
  return new Proxy(sql, {
    apply(target, _this, args: unknown[]) {
      const [strings, ...values] = args as [TemplateStringsArray, ...unknown[]];
      const text = [`EXPLAIN (FORMAT JSON) ${strings[0]}`, ...strings.slice(1)];
      const explained = Object.assign(text, { raw: text }) as unknown as TemplateStringsArray;
      return (target(explained, ...(values as never[])) as Promise<Record<string, unknown>[]>)
        .then((answer) => {
          const plan = answer[0]["QUERY PLAN"];
          onPlan(typeof plan === "string" ? JSON.parse(plan) : plan);
          return rows;
        });
    },
  });
}
