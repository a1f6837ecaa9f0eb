import { type Static, Type } from '@sinclair/typebox';

const MiB = 1024 * 1024;

/**
 * Every environment variable the services read, with its default. The table of docs/configuration.md is
 * written from this schema, so a variable documented there and missing here is a bug.
 */
export const EnvSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  HOST: Type.String({ default: '127.0.0.1', description: 'interface both services listen on' }),
  READER_PORT: Type.Integer({ default: 3000, minimum: 0, maximum: 65535 }),
  ADMIN_PORT: Type.Integer({ default: 3001, minimum: 0, maximum: 65535 }),
  DATABASE_URL: Type.String({
    default: './data/library.db',
    minLength: 1,
    description: 'postgres://... for PostgreSQL, otherwise the path of the SQLite file',
  }),
  DATABASE_POOL_SIZE: Type.Integer({
    default: 10,
    minimum: 1,
    maximum: 1000,
    description: 'PostgreSQL connections per process (replicas x this must fit max_connections)',
  }),
  DATABASE_CONNECT_TIMEOUT_MS: Type.Integer({
    default: 5000,
    minimum: 100,
    maximum: 600_000,
    description: 'PostgreSQL: longest wait for a connection (a new one or a free one of the pool); then 503',
  }),
  DATABASE_STATEMENT_TIMEOUT_MS: Type.Integer({
    default: 30_000,
    minimum: 0,
    maximum: 3_600_000,
    description: "PostgreSQL: the services' statement_timeout (0: none); then 503. Migrations run without it",
  }),
  DATABASE_PREPARED_STATEMENTS: Type.Boolean({
    default: true,
    description:
      'PostgreSQL: run the lookups every request makes as prepared statements (false behind a pooler that does not keep them)',
  }),
  STORAGE_DIR: Type.String({ default: './data/storage', minLength: 1 }),
  // unset: http://localhost:<READER_PORT>, so a reader moved to another port still links its own files
  PUBLIC_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  JWT_EXPIRES_IN: Type.String({ default: '1h', pattern: '^[1-9][0-9]*[smhd]?$' }),
  ADMIN_USERNAME: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  ADMIN_PASSWORD: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  REDIS_KEY_PREFIX: Type.String({
    default: 'readlib:',
    maxLength: 64,
    description: 'prefix of every Redis key, so deployments (or test runs) can share one Redis',
  }),
  TRUST_PROXY: Type.String({
    default: '',
    description: "'' (no proxy), 'true', a hop count, or comma-separated proxy addresses/CIDRs",
  }),
  METRICS_TOKEN: Type.String({
    default: '',
    description: "Bearer token for GET /metrics; '' leaves it open",
  }),
  CORS_ORIGIN: Type.String({ default: '*', description: "comma-separated origins, '*' for any" }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ default: 1200, minimum: 1 }),
  LOGIN_ATTEMPTS_PER_MINUTE: Type.Integer({ default: 10, minimum: 1 }),
  WECHAT_API_BASE: Type.String({ default: 'https://api.weixin.qq.com', pattern: '^https?://' }),
  WECHAT_APP_SECRETS: Type.String({ default: '', description: 'appId=secret pairs, comma-separated' }),
  ALIPAY_GATEWAY: Type.String({ default: 'https://openapi.alipay.com/gateway.do', pattern: '^https?://' }),
  ALIPAY_APP_KEYS: Type.String({
    default: '',
    description: 'appId=privateKeyFile:alipayPublicKeyFile triples, comma-separated (PEM files)',
  }),
  PLATFORM_TIMEOUT_MS: Type.Integer({ default: 5000, minimum: 100 }),
  READER_REQUEST_TIMEOUT_MS: Type.Integer({
    default: 60_000,
    minimum: 0,
    description: 'time a client has to send a whole request to the reader service, then 408 (0: no limit)',
  }),
  ADMIN_REQUEST_TIMEOUT_MS: Type.Integer({
    default: 30 * 60_000,
    minimum: 0,
    description: 'the same for the admin service, whose uploads take longest (0: no limit)',
  }),
  SOCKET_IDLE_TIMEOUT_MS: Type.Integer({
    default: 120_000,
    minimum: 0,
    description: 'a connection that neither sends nor takes a byte for this long is closed (0: never)',
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    default: 20_000,
    minimum: 0,
    description:
      'on SIGTERM, how long requests in flight may take before their connections are cut (0: no limit)',
  }),
  UPLOAD_MAX_BYTES: Type.Integer({ default: 150 * MiB, minimum: 1024 }),
  EPUB_MAX_ENTRIES: Type.Integer({ default: 10_000, minimum: 1 }),
  EPUB_MAX_UNCOMPRESSED_BYTES: Type.Integer({ default: 512 * MiB, minimum: 1024 }),
  UPLOAD_GRACE_MINUTES: Type.Integer({ default: 24 * 60, minimum: 1 }),
  DEMO_CATALOGUE: Type.Boolean({ default: true, description: 'import the demo books on an empty catalogue' }),
  REPORT_UTC_OFFSET: Type.String({
    default: '+00:00',
    pattern: '^[+-][0-9]{2}:[0-9]{2}$',
    description: 'fixed offset (+HH:MM or -HH:MM) at which the report screens start their days',
  }),
  BANNER_IMG: Type.String({ default: '' }),
  BANNER_TITLE: Type.String({ default: 'Read something new today' }),
  BANNER_SUBTITLE: Type.String({ default: 'Fresh picks from the catalogue' }),
  BANNER_URL: Type.String({ default: '' }),
});
export type Env = Static<typeof EnvSchema>;
