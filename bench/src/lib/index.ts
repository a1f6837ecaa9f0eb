export * from './gen.js';
export type { Row } from './sink.js';
