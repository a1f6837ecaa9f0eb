import { LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { describe, expect, it } from 'vitest';
import { trendOption } from './dashboard.options';

use([LineChart, GridComponent, TooltipComponent, SVGRenderer]);

/** 30 days, as the dashboard's default window draws them. */
const AXIS = Array.from({ length: 30 }, (_, i) =>
  new Date(Date.UTC(2026, 9, 30 + i)).toISOString().slice(0, 10),
);

/**
 * The horizontal extent of each date drawn, from the chart rendered to SVG on the server: where each
 * text is put (`translate`, plus `x` if any) and its anchor, its width estimated at 7 px a character of 12 px digits (a little over what a
 * browser draws).
 */
function dateExtents(width: number, values: number[]): { text: string; left: number; right: number }[] {
  const chart = init(null, null, { renderer: 'svg', ssr: true, width, height: 320 });
  chart.setOption(trendOption({ axis: AXIS, values }, 'New users'));
  const svg = chart.renderToSVGString();
  chart.dispose();
  const texts = [...svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].filter(([, , text]) =>
    /^\d{4}-\d\d-\d\d$/.test(text ?? ''),
  );
  return texts.map(([, attrs = '', text = '']) => {
    const at = /transform="translate\(([-\d.]+)/.exec(attrs)?.[1];
    const x = Number(at ?? 0) + Number(/\bx="([-\d.]+)"/.exec(attrs)?.[1] ?? 0);
    const anchor = /text-anchor:\s*(\w+)|text-anchor="(\w+)"/.exec(attrs);
    const align = anchor?.[1] ?? anchor?.[2] ?? 'start';
    const w = text.length * 7;
    const left = align === 'middle' ? x - w / 2 : align === 'end' ? x - w : x;
    return { text, left, right: left + w };
  });
}

describe('the trend charts as drawn', () => {
  for (const [width, values] of [
    [560, AXIS.map((_, i) => i % 4)],
    [420, AXIS.map((_, i) => i * 1000)],
  ] as const)
    it(`draw the first date and every other one whole, inside the chart (${width} px, up to ${Math.max(...values)})`, () => {
      const dates = dateExtents(width, [...values]);
      expect(dates.length).toBeGreaterThan(1);
      // the first date is always labelled; which others are depends on the room (every n-th)
      expect(dates[0]?.text).toBe(AXIS[0]);
      for (const d of dates) {
        expect(d.left, d.text).toBeGreaterThanOrEqual(0);
        expect(d.right, d.text).toBeLessThanOrEqual(width);
      }
    });
});
