export type DatabaseConfig = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  host: string;
  readerPort: number;
  adminPort: number;
  logLevel: string;
  database: DatabaseConfig;
  /** PostgreSQL connections per process */
  databasePoolSize: number;
  /** PostgreSQL: the lookups every request makes run as named prepared statements */
  databasePreparedStatements: boolean;
  /** PostgreSQL: bounded waits, so a database that does not answer gives 503s, not hung requests */
  databaseTimeouts: { connectMs: number; statementMs: number };
  storageDir: string;
  /** without trailing slash */
  publicBaseUrl: string;
  jwt: { secret: string; generatedSecret: boolean; expiresIn: string };
  firstOperator: { username: string; password: string | undefined } | undefined;
  redisUrl: string | undefined;
  /** prefix of every Redis key (rate limits, login counters, cache) */
  redisKeyPrefix: string;
  /** Fastify's trustProxy: which hops may set X-Forwarded-For (false without a proxy) */
  trustProxy: boolean | number | string[];
  /** required as a Bearer token on GET /metrics when set */
  metricsToken: string | undefined;
  corsOrigin: true | string[];
  rateLimit: { perMinute: number; loginPerMinute: number };
  /** per service: how long a client may take to send a whole request (0: no limit) */
  requestTimeoutMs: { reader: number; admin: number };
  /** a connection silent both ways this long is closed (a client that stopped reading a download) */
  socketIdleTimeoutMs: number;
  /** how long a closing service waits for requests in flight before it cuts their connections */
  shutdownTimeoutMs: number;
  platforms: {
    timeoutMs: number;
    wechat: { baseUrl: string; secrets: Record<string, string> };
    alipay: { gateway: string; keys: Record<string, { privateKeyFile: string; publicKeyFile: string }> };
  };
  upload: { maxBytes: number; maxEntries: number; maxUncompressedBytes: number; graceMinutes: number };
  demoCatalogue: boolean;
  /** REPORT_UTC_OFFSET in ms east of UTC: where the report screens' days begin (decisions.md §5) */
  reportUtcOffsetMs: number;
  banner: { img: string; title: string; subTitle: string; url: string };
}
