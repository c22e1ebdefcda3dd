import { useEffect, useId, useRef, useState } from "preact/hooks";
import type uPlot from "uplot";
import { theme } from "../../shell/theme";
import { t } from "./strings";

export interface Series {
  label: string;
  /** null: no value that day (a gap in the line, a dash in the table). */
  values: (number | null)[];
}

interface Props {
  title: string;
  /** Bucket starts (epoch ms) and their names as the API gives them (YYYY-MM-DD). */
  starts: number[];
  labels: string[];
  series: Series[];
  /** How a value reads in the table and the axis. */
  format: (n: number) => string;
  /** Called each time the chart has been drawn. */
  onDrawn?: () => void;
}

// uPlot is a chunk of its own, asked for as soon as this page's code runs: it downloads and parses
// while the page's data requests are under way, instead of delaying them.
const library = import("./uplot").then((m) => m.default);

/** The colour a CSS class gives text, resolved (canvas strokes take no custom properties or light-dark()). */
function colourOf(host: HTMLElement, cls: string): string {
  const probe = document.createElement("span");
  probe.className = cls;
  host.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

/** The y axis's least width (CSS px): counts' labels fit in it, and their charts keep one look. */
const AXIS_MIN = 56;
/** Room left of the longest label, so its first letter is not on the canvas's edge. */
const AXIS_PAD = 6;

/**
 * The y axis as wide as its longest label needs ("3 min 20 s", "2 小時 5 分鐘"), measured in the font the
 * axis draws with: a fixed width cut long durations' labels at the canvas's edge. uPlot asks again while
 * the ticks settle (`cycleNum`); past the second pass the size it has is kept, so the layout converges.
 */
function valuesWidth(u: uPlot, values: string[] | null, axisIdx: number, cycleNum: number): number {
  const axis = u.axes[axisIdx]! as uPlot.Axis & { _size?: number; font: [string, number] };
  if (cycleNum > 1 && axis._size) return axis._size;
  u.ctx.font = axis.font[0];
  const widest = Math.max(0, ...(values ?? []).map((v) => u.ctx.measureText(v).width / devicePixelRatio));
  const ticks = (axis.ticks as { size?: number } | undefined)?.size ?? 0;
  return Math.max(AXIS_MIN, Math.ceil(widest + ticks + (axis.gap ?? 0) + AXIS_PAD));
}

/**
 * A line chart of values per day (uPlot on a canvas, hidden from assistive technology) with its
 * data as a table: visually hidden until "Show the data as a table" is pressed, always there for
 * screen readers. Redrawn with the theme's colours when the theme changes, and to the width it has.
 */
export function Chart({ title, starts, labels, series, format, onDrawn }: Props) {
  const id = useId();
  const host = useRef<HTMLDivElement>(null);
  const [tableShown, setTableShown] = useState(false);
  const look = theme.value;
  useEffect(() => {
    let plot: uPlot | undefined;
    let resize: ResizeObserver | undefined;
    let live = true;
    library.then((uPlot) => {
      if (live) [plot, resize] = draw(uPlot);
    });
    return () => {
      live = false;
      resize?.disconnect();
      plot?.destroy();
    };
  }, [starts, series, look]);

  const draw = (uPlot: Awaited<typeof library>): [uPlot, ResizeObserver] => {
    const el = host.current!;
    const text = colourOf(el, "chart-text");
    const grid = colourOf(el, "chart-grid");
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 240),
        height: 200,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
        axes: [
          { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } },
          {
            stroke: text,
            grid: { stroke: grid, width: 1 },
            ticks: { stroke: grid },
            size: valuesWidth,
            values: (_u, ticks) => ticks.map(format),
          },
        ],
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: colourOf(el, `chart-s${i + 1}`),
            width: 2,
            points: { show: starts.length <= 62 },
          })),
        ],
      },
      [starts.map((ms) => ms / 1000), ...series.map((s) => s.values)],
      el,
    );
    // The observer also reports the first size, which the plot already has: only a change redraws.
    let width = plot.width;
    const resize = new ResizeObserver(() => {
      const next = Math.max(el.clientWidth, 240);
      if (next !== width) plot.setSize({ width: (width = next), height: 200 });
    });
    resize.observe(el);
    onDrawn?.();
    return [plot, resize];
  };
  return (
    <figure class="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} class="chart-title">
        {title}
      </figcaption>
      {series.length > 1 && (
        <ul class="chart-legend" aria-hidden="true">
          {series.map((s, i) => (
            <li key={s.label}>
              <span class={`swatch chart-s${i + 1}`} />
              {s.label}
            </li>
          ))}
        </ul>
      )}
      <div ref={host} class="chart-plot" aria-hidden="true" />
      <button
        type="button"
        class="btn quiet small"
        aria-expanded={tableShown}
        aria-controls={`${id}-table`}
        onClick={() => setTableShown(!tableShown)}
      >
        {tableShown ? t("hideTable") : t("showTable")}
      </button>
      {/* Shown, it scrolls: a focusable region, so keyboards can scroll it. */}
      <div
        id={`${id}-table`}
        class={tableShown ? "table-wrap chart-table" : "sr-only"}
        role={tableShown ? "region" : undefined}
        aria-label={tableShown ? t("chartData", { title }) : undefined}
        tabIndex={tableShown ? 0 : undefined}
      >
        <table class="table">
          <caption class="sr-only">{t("chartData", { title })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("day")}</th>
              {series.map((s) => (
                <th key={s.label} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, row) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {series.map((s) => (
                  <td key={s.label} class="num">
                    {s.values[row] === null ? "—" : format(s.values[row]!)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
