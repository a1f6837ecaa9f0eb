import { BarChart, LineChart, MapChart, ScatterChart } from 'echarts/charts';
import {
  GeoComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import { use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
// registers the `wordCloud` series on the same ECharts core
import 'echarts-wordcloud';

/**
 * Only the charts and components the dashboard draws (tree-shaken), rendered as SVG: every label and
 * tooltip is an SVG text node, so text from readers is shown as text and never parsed as markup.
 */
use([
  BarChart,
  LineChart,
  MapChart,
  ScatterChart,
  GeoComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
  SVGRenderer,
]);

export type { EChartsCoreOption, EChartsType } from 'echarts/core';
export { init, registerMap } from 'echarts/core';
