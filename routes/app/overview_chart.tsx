/**
 * The overview's chart: points spent per day over the window, one stacked bar per day with a
 * segment per operation, drawn on the server as SVG (no script). d3-scale places the bars and
 * picks the ticks, d3-shape stacks the segments; hono/jsx writes the elements.
 *
 * The bars' horizontal positions are percentages of the plot's width and the vertical ones are
 * pixels, with no viewBox: the chart fills any width while its text keeps its size, so the same
 * markup reads on a phone and on a desktop. The y-axis labels sit in their own narrow SVG beside
 * the plot for the same reason (a percentage cannot be offset by a fixed margin).
 */
import { scaleBand, scaleLinear } from "d3-scale";
import { stack } from "d3-shape";
import type { SpendingByDay } from "../../domain/billing/spending_by_day.ts";
import { points } from "./layout.tsx";
import { isOperation, operationName, OPERATIONS } from "./operation_names.ts";
import { longDay, shortDay } from "./dates.tsx";
import type { PriceTable } from "../../domain/config/config.ts";

// d3-scale and d3-shape ship no types: the little used here, typed by hand.
interface LinearScale {
  (value: number): number;
  domain(values: number[]): LinearScale;
  domain(): number[];
  range(values: number[]): LinearScale;
  nice(count?: number): LinearScale;
  ticks(count?: number): number[];
}
interface BandScale {
  (value: string): number | undefined;
  domain(values: string[]): BandScale;
  range(values: number[]): BandScale;
  paddingInner(padding: number): BandScale;
  paddingOuter(padding: number): BandScale;
  bandwidth(): number;
}
type DayRow = Record<string, number> & { index: number };
type StackedSeries = ([number, number] & { data: DayRow })[] & { key: string };
interface StackGenerator {
  keys(keys: string[]): StackGenerator;
  (rows: DayRow[]): StackedSeries[];
}

/** One colour per operation (Tableau 10), fixed so an operation keeps its colour across days. */
const COLOURS: Record<keyof PriceTable, string> = {
  nameParse: "#4e79a7",
  findEmail: "#f28e2b",
  findCompany: "#edc948",
  networkSearch: "#76b7b2",
  enrich: "#59a14f",
  lead: "#b07aa1",
  verify: "#e15759",
  domainSearch: "#ff9da7",
};
/** A bulk job's lines share its single calls' hue family, a shade apart. */
const LEDGER_COLOURS: Record<string, string> = {
  "bulk-find": "#9d5f1f",
  "bulk-enrich": "#2f6b2a",
  "bulk-verify": "#a3282a",
};
const OTHER_COLOUR = "#9c9c9c";

export function operationColour(operation: string): string {
  if (isOperation(operation)) return COLOURS[operation];
  return Object.hasOwn(LEDGER_COLOURS, operation) ? LEDGER_COLOURS[operation] : OTHER_COLOUR;
}

const HEIGHT = 220;
const TOP = 10;
const AXIS = 26;
const PLOT_BOTTOM = HEIGHT - AXIS;
const compact = new Intl.NumberFormat("en-US", { notation: "compact" });
const percent = (value: number) => `${value.toFixed(3)}%`;

/** The operations that spent anything, in the price table's order (unknown ones last). */
function operationsOf(data: SpendingByDay): string[] {
  const present = new Set(data.spending.map((row) => row.operation));
  return [
    ...OPERATIONS.filter((operation) => present.has(operation)),
    ...[...present].filter((operation) => !isOperation(operation)).sort(),
  ];
}

export function SpendingChart(props: { data: SpendingByDay }) {
  const { data } = props;
  const operations = operationsOf(data);
  const rows: DayRow[] = data.days.map((_, index) => {
    const row = { index } as DayRow;
    for (const operation of operations) row[operation] = 0;
    return row;
  });
  const dayIndex = new Map(data.days.map((day, index) => [day, index]));
  for (const entry of data.spending) {
    rows[dayIndex.get(entry.day)!][entry.operation] += entry.points;
  }
  const dayTotals = rows.map((row) =>
    operations.reduce((sum, operation) => sum + row[operation], 0)
  );
  const operationTotals = new Map(
    operations.map((operation) => [
      operation,
      rows.reduce((sum, row) => sum + row[operation], 0),
    ]),
  );

  const x = (scaleBand() as BandScale).domain(data.days).range([0, 100]).paddingInner(0.25)
    .paddingOuter(0.15);
  const y = (scaleLinear() as LinearScale).domain([0, Math.max(...dayTotals, 1)])
    .range([PLOT_BOTTOM, TOP]).nice(4);
  const ticks = y.ticks(4).filter(Number.isInteger);
  const series = (stack() as StackGenerator).keys(operations)(rows);
  const width = x.bandwidth();
  const last = data.days.length - 1;
  // Weekly labels ending today: four or five, apart enough for a phone's width.
  const labelled = data.days.filter((_, index) => (last - index) % 7 === 0 && index >= 3);

  const label =
    `Points spent per day over the last ${data.days.length} days, by operation: ${
      points(data.total)
    } in all. ` +
    operations.map((operation) =>
      `${operationName(operation)} ${points(operationTotals.get(operation)!)}`
    ).join(", ") + ".";

  return (
    <figure class="chart spend-chart">
      <div class="spend-plot">
        <svg class="spend-y" width="44" height={HEIGHT} aria-hidden="true">
          {ticks.map((tick) => (
            <text x="38" y={y(tick)} dy="0.32em" text-anchor="end">{compact.format(tick)}</text>
          ))}
        </svg>
        <svg
          class="spend-bars"
          width="100%"
          height={HEIGHT}
          role="img"
          aria-label={label}
        >
          <g class="spend-grid">
            {ticks.map((tick) => <line key={tick} x1="0" x2="100%" y1={y(tick)} y2={y(tick)} />)}
          </g>
          {
            /* Behind the segments, a column per day that spent anything: hovering or tapping
             anywhere over the day tells its total and parts. */
          }
          <g class="spend-days">
            {data.days.map((day, index) =>
              dayTotals[index] === 0 ? null : (
                <rect
                  x={percent(x(day)! - width * 0.15)}
                  width={percent(width * 1.3)}
                  y={TOP}
                  height={PLOT_BOTTOM - TOP}
                >
                  <title>
                    {`${longDay(day)}: ${points(dayTotals[index])} points\n` +
                      operations.filter((operation) => rows[index][operation] > 0)
                        .map((operation) =>
                          `${operationName(operation)}: ${points(rows[index][operation])}`
                        ).join("\n")}
                  </title>
                </rect>
              )
            )}
          </g>
          {series.map((layer) => (
            <g class="spend-series" fill={operationColour(layer.key)} data-operation={layer.key}>
              {layer.map((segment) => {
                const [low, high] = segment;
                if (high - low <= 0) {
                  return null;
                }
                const day = data.days[segment.data.index];
                return (
                  <rect
                    x={percent(x(day)!)}
                    width={percent(width)}
                    y={y(high)}
                    height={Math.max(y(low) - y(high), 1)}
                    data-day={day}
                    data-points={high - low}
                  >
                    <title>
                      {`${longDay(day)} · ${operationName(layer.key)}: ${points(high - low)} point${
                        high - low === 1 ? "" : "s"
                      } (day: ${points(dayTotals[segment.data.index])})`}
                    </title>
                  </rect>
                );
              })}
            </g>
          ))}
          <line class="spend-base" x1="0" x2="100%" y1={PLOT_BOTTOM} y2={PLOT_BOTTOM} />
          <g class="spend-x">
            {labelled.map((day) => (
              <>
                <line
                  x1={percent(x(day)! + width / 2)}
                  x2={percent(x(day)! + width / 2)}
                  y1={PLOT_BOTTOM}
                  y2={PLOT_BOTTOM + 4}
                />
                <text x={percent(x(day)! + width / 2)} y={HEIGHT - 6} text-anchor="middle">
                  {day === data.days[last] ? "Today" : shortDay(day)}
                </text>
              </>
            ))}
          </g>
        </svg>
      </div>
      <figcaption class="legend">
        {operations.map((operation) => (
          <span>
            <i style={`background:${operationColour(operation)}`}></i>
            {operationName(operation)} <strong>{points(operationTotals.get(operation)!)}</strong>
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
