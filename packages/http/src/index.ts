export type { App } from './app.types.js';
export { type BaseAppOptions, createBaseApp } from './create-base-app.js';
export { type Family, failure, success } from './envelope.js';
export { classify, failureFields, logIdleConnectionLost } from './error-handler.js';
export { assertCanListen, listenAdvice, listenOn } from './listen.js';
export { type MetricsOptions, registerMetrics } from './metrics.plugin.js';
export type { OpenApiInfo } from './openapi.plugin.js';
export {
  closeRedis,
  connectRedis,
  RedisUnavailableError,
  redactRedisUrl,
  redisAnswers,
  watchRedis,
} from './redis.js';
export { openSharedState, type SharedState } from './redis-state.js';
export { errorResponses } from './responses.js';
export {
  type Answer,
  type RouteHandler,
  type RouteRequest,
  routeSchema,
  type ServeOptions,
  serve,
  servesOf,
} from './route.js';
export { firstStatements, servingDbOptions } from './service-database.js';
export { type StopOptions, stopOnSignals } from './stop-on-signals.js';
