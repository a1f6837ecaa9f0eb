export { type App, type BaseAppOptions, createBaseApp } from './create-base-app.js';
export { type Family, failure, success } from './envelope.js';
export { classify } from './error-handler.js';
export type { OpenApiInfo } from './openapi.plugin.js';
export { errorResponses } from './responses.js';
