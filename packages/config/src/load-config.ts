import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import envSchema from 'env-schema';
import type { AppConfig } from './config.types.js';
import { EnvSchema } from './env.schema.js';
import { parsePairs } from './pairs.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface LoadConfigOptions {
  /** read `.env` from the working directory when present (default true; tests pass false) */
  dotenv?: boolean;
}

/** Validates the environment once, at start, and turns it into the typed config the apps receive. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: LoadConfigOptions = {},
): AppConfig {
  const useDotenv = (options.dotenv ?? true) && existsSync('.env');
  let raw: ReturnType<typeof validate>;
  try {
    raw = validate(env, useDotenv);
  } catch (err) {
    throw new ConfigError(`invalid configuration: ${describeInvalid(err as Error, env)}`);
  }
  const production = raw.NODE_ENV === 'production';
  // every check is made and their faults said together, as the schema's are: a deployer fixes them
  // in one go rather than one start at a time
  const faults: string[] = [];
  const checked = <T>(check: () => T): T | undefined => {
    try {
      return check();
    } catch (err) {
      // the checks below throw for a fault of the value only (ConfigError, or parsePairs' Error)
      if (!(err instanceof Error)) throw err;
      faults.push(err.message);
      return undefined;
    }
  };
  if (production) checked(() => assertNoPlaceholders(raw));
  if (production && !raw.JWT_SECRET) {
    faults.push('JWT_SECRET (at least 32 characters) is required when NODE_ENV=production');
  }
  // a password alone names no operator: a development start would generate one for `admin` instead
  if (raw.ADMIN_PASSWORD && !raw.ADMIN_USERNAME) {
    faults.push('ADMIN_USERNAME is required with ADMIN_PASSWORD: the password is for that operator');
  }
  if (production && raw.ADMIN_USERNAME && !raw.ADMIN_PASSWORD) {
    faults.push('ADMIN_PASSWORD is required with ADMIN_USERNAME when NODE_ENV=production');
  }
  checked(() => assertHost(raw.HOST));
  // one process listens on both (pnpm start): the second listen would fail after the first service started
  if (raw.READER_PORT !== 0 && raw.READER_PORT === raw.ADMIN_PORT)
    faults.push(
      `READER_PORT and ADMIN_PORT are both ${raw.READER_PORT}: the two services listen on two ports, set one of them to another`,
    );
  const isPostgres = /^postgres(ql)?:\/\//.test(raw.DATABASE_URL);
  // anything else is a SQLite file path: `mysql://x/y` or a misspelt scheme became a file `mysql:/x/y`
  if (!isPostgres && /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(raw.DATABASE_URL))
    faults.push(
      `DATABASE_URL: ${raw.DATABASE_URL.split(':')[0]}:// is not a database this service runs on (postgres:// or a SQLite file path)`,
    );
  if (isPostgres) checked(() => assertPostgresUrl(raw.DATABASE_URL));
  const redisUrl = raw.REDIS_URL;
  if (redisUrl !== undefined) checked(() => assertRedisUrl(redisUrl));
  const publicBaseUrl = raw.PUBLIC_BASE_URL;
  if (publicBaseUrl !== undefined) checked(() => assertHttpUrl('PUBLIC_BASE_URL', publicBaseUrl));
  const corsOrigins =
    raw.CORS_ORIGIN === '*'
      ? undefined
      : raw.CORS_ORIGIN.split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  for (const origin of corsOrigins ?? []) checked(() => assertHttpUrl('CORS_ORIGIN', origin, true));
  const wechatSecrets = checked(() => parsePairs(raw.WECHAT_APP_SECRETS, 'WECHAT_APP_SECRETS'));
  const alipayKeys = checked(() => parseAlipayKeys(raw.ALIPAY_APP_KEYS));
  const reportUtcOffsetMs = checked(() => parseUtcOffset(raw.REPORT_UTC_OFFSET));
  const trustProxy = checked(() => parseTrustProxy(raw.TRUST_PROXY));
  if (
    faults.length > 0 ||
    !wechatSecrets ||
    !alipayKeys ||
    reportUtcOffsetMs === undefined ||
    trustProxy === undefined
  )
    throw new ConfigError(`invalid configuration: ${faults.join('; ')}`);
  return {
    env: raw.NODE_ENV,
    host: raw.HOST,
    readerPort: raw.READER_PORT,
    adminPort: raw.ADMIN_PORT,
    logLevel: raw.LOG_LEVEL,
    database: isPostgres
      ? { dialect: 'postgres', url: raw.DATABASE_URL }
      : { dialect: 'sqlite', file: raw.DATABASE_URL === ':memory:' ? ':memory:' : resolve(raw.DATABASE_URL) },
    databasePoolSize: raw.DATABASE_POOL_SIZE,
    databasePreparedStatements: raw.DATABASE_PREPARED_STATEMENTS,
    databaseTimeouts: {
      connectMs: raw.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: raw.DATABASE_STATEMENT_TIMEOUT_MS,
    },
    storageDir: resolve(raw.STORAGE_DIR),
    publicBaseUrl: (raw.PUBLIC_BASE_URL ?? `http://localhost:${raw.READER_PORT}`).replace(/\/+$/, ''),
    jwt: {
      secret: raw.JWT_SECRET ?? randomBytes(32).toString('hex'),
      generatedSecret: !raw.JWT_SECRET,
      // a bare number is seconds (README); @fastify/jwt would read it as milliseconds
      expiresIn: /^[0-9]+$/.test(raw.JWT_EXPIRES_IN) ? `${raw.JWT_EXPIRES_IN}s` : raw.JWT_EXPIRES_IN,
    },
    firstOperator: raw.ADMIN_USERNAME
      ? { username: raw.ADMIN_USERNAME, password: raw.ADMIN_PASSWORD }
      : undefined,
    redisUrl: raw.REDIS_URL,
    redisKeyPrefix: raw.REDIS_KEY_PREFIX,
    trustProxy,
    metricsToken: raw.METRICS_TOKEN || undefined,
    // as browsers send it in Origin, with no trailing slash: the CORS plugin compares strings
    corsOrigin: corsOrigins?.map(withoutTrailingSlash) ?? true,
    rateLimit: { perMinute: raw.RATE_LIMIT_PER_MINUTE, loginPerMinute: raw.LOGIN_ATTEMPTS_PER_MINUTE },
    requestTimeoutMs: { reader: raw.READER_REQUEST_TIMEOUT_MS, admin: raw.ADMIN_REQUEST_TIMEOUT_MS },
    socketIdleTimeoutMs: raw.SOCKET_IDLE_TIMEOUT_MS,
    shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS,
    platforms: {
      timeoutMs: raw.PLATFORM_TIMEOUT_MS,
      wechat: {
        baseUrl: raw.WECHAT_API_BASE,
        secrets: wechatSecrets,
      },
      alipay: { gateway: raw.ALIPAY_GATEWAY, keys: alipayKeys },
    },
    upload: {
      maxBytes: raw.UPLOAD_MAX_BYTES,
      maxEntries: raw.EPUB_MAX_ENTRIES,
      maxUncompressedBytes: raw.EPUB_MAX_UNCOMPRESSED_BYTES,
      graceMinutes: raw.UPLOAD_GRACE_MINUTES,
    },
    demoCatalogue: raw.DEMO_CATALOGUE,
    reportUtcOffsetMs,
    banner: {
      img: raw.BANNER_IMG,
      title: raw.BANNER_TITLE,
      subTitle: raw.BANNER_SUBTITLE,
      url: raw.BANNER_URL,
    },
  };
}

function validate(env: Record<string, string | undefined>, dotenv: boolean) {
  const data = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k in EnvSchema.properties && v !== undefined && v !== ''),
  );
  const parsed = envSchema({ schema: structuredClone(EnvSchema), data, env: false, dotenv });
  // env-schema has coerced and defaulted; TypeBox re-checks so the static type is honest.
  return Value.Parse(EnvSchema, parsed);
}

/**
 * One entry per variable: Ajv says `must be equal to constant` once per allowed value of an enum, then
 * `must match a schema in anyOf`, and names none of the values. An enum says what it got and what it
 * takes; another failure keeps Ajv's words (`READER_PORT must be <= 65535`).
 */
function describeInvalid(err: Error, env: Record<string, string | undefined>): string {
  const errors = (err as Error & { errors?: Array<{ instancePath?: string; message?: string }> }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return err.message;
  const byName = new Map<string, string>();
  for (const e of errors) {
    const name = (e.instancePath ?? '').replace(/^\//, '');
    if (!name || byName.has(name)) continue;
    const allowed = enumValues(name);
    byName.set(
      name,
      allowed
        ? `${name} is ${JSON.stringify(env[name] ?? '')}, expected one of: ${allowed.join(', ')}`
        : `${name} ${e.message ?? 'is invalid'}`,
    );
  }
  return byName.size > 0 ? [...byName.values()].join('; ') : err.message;
}

/** The values a variable of the schema takes when it is a union of literals (NODE_ENV, LOG_LEVEL). */
function enumValues(name: string): string[] | undefined {
  const schema = (EnvSchema.properties as Record<string, { anyOf?: Array<{ const?: unknown }> }>)[name];
  const values = schema?.anyOf?.map((s) => s.const);
  return values?.every((v) => typeof v === 'string') ? (values as string[]) : undefined;
}

// the values deploy/readlib.env.example ships with: they are published, so anyone could sign tokens,
// log in as the first operator or read the metrics of a deployment that kept them
const PLACEHOLDER = /change-me/i;
const SECRETS = [
  'JWT_SECRET',
  'ADMIN_PASSWORD',
  'METRICS_TOKEN',
  'DATABASE_URL',
  'REDIS_URL',
  'WECHAT_APP_SECRETS',
] as const;

/** Production refuses a secret still holding the example's placeholder, naming each such variable. */
function assertNoPlaceholders(raw: Partial<Record<(typeof SECRETS)[number], string>>): void {
  const kept = SECRETS.filter((name) => PLACEHOLDER.test(raw[name] ?? ''));
  if (kept.length === 0) return;
  throw new ConfigError(
    `${kept.join(', ')} ${kept.length === 1 ? 'holds' : 'hold'} the CHANGE-ME placeholder of deploy/readlib.env.example: set ${kept.length === 1 ? 'a value' : 'values'} of your own when NODE_ENV=production`,
  );
}

/**
 * A postgres:// URL node-postgres can parse (the same steps as pg-connection-string): one it cannot
 * failed at the first query as `Invalid URL`, naming neither the variable nor the cause. The value is
 * not repeated: it holds the password.
 */
function assertPostgresUrl(url: string): void {
  const encoded = / |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(url)
    ? encodeURI(url).replace(/%25(\d\d)/g, '%$1')
    : url;
  if (URL.canParse(encoded) || URL.canParse(encoded.replace('@/', '@___DUMMY___/'))) return;
  throw new ConfigError(
    'DATABASE_URL is not a valid postgres:// URL (postgres://user:password@host:port/database): check the host and the port, and percent-encode any / ? # @ in the user or password',
  );
}

/**
 * A redis:// URL whose port is a port and whose path, if any, is a database number: the client reads
 * `/abc` as database NaN, which Redis refuses with a stack trace at start, and a port past 65535 failed
 * as `Invalid URL`, naming no variable. The value is not repeated: it may hold a password.
 */
function assertRedisUrl(url: string): void {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed !== undefined && /^(\/[0-9]*)?$/.test(parsed.pathname)) return;
  throw new ConfigError(
    'REDIS_URL is not a valid redis:// URL (redis://[user:password@]host[:port][/database], the database a number): check the port and the database',
  );
}

function parseTrustProxy(value: string): boolean | number | string[] {
  const v = value.trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^[0-9]+$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isProxyAddress(entry));
  if (bad.length > 0)
    throw new ConfigError(
      `TRUST_PROXY: ${bad.map((entry) => JSON.stringify(entry)).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not true, false, a hop count or a proxy address (an IP, IP/prefix or IPv4/netmask, or loopback, linklocal, uniquelocal)`,
    );
  return entries;
}

/** proxy-addr's named ranges: Fastify expands them. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * An entry Fastify's proxy-addr compiles: a name above, an address, or an address with a prefix length
 * from 1 to its family's width, or an IPv4 address with a contiguous IPv4 netmask. proxy-addr throws
 * `invalid IP address: …` for anything else when the server is built, a line that names no variable.
 */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const slash = entry.lastIndexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash === -1) return true;
  const range = entry.slice(slash + 1);
  if (/^[0-9]+$/.test(range)) {
    const bits = Number(range);
    return bits > 0 && bits <= (family === 4 ? 32 : 128);
  }
  if (family !== 4 || isIP(range) !== 4) return false;
  const mask = range.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
  // contiguous ones then zeros, and not all zeros: the inverted mask plus one is a power of two
  const inverted = 0xffffffff - mask;
  return mask !== 0 && (inverted & (inverted + 1)) === 0;
}

function parseAlipayKeys(value: string): Record<string, { privateKeyFile: string; publicKeyFile: string }> {
  const out: Record<string, { privateKeyFile: string; publicKeyFile: string }> = Object.create(null);
  for (const [appId, files] of Object.entries(parsePairs(value, 'ALIPAY_APP_KEYS'))) {
    const [privateKeyFile, publicKeyFile] = files.split(':');
    if (!privateKeyFile || !publicKeyFile) {
      throw new ConfigError(`ALIPAY_APP_KEYS: "${appId}" needs privateKeyFile:publicKeyFile`);
    }
    out[appId] = { privateKeyFile: resolve(privateKeyFile), publicKeyFile: resolve(publicKeyFile) };
  }
  return out;
}

/**
 * REPORT_UTC_OFFSET (`+HH:MM` / `-HH:MM`, shape checked by the schema) in ms east of UTC. The range is
 * that of real zones, and minutes are quarter hours: zones use :30 and :45 (India, Nepal), never other
 * minutes, so `+08:20` is a typo rather than a zone.
 */
function parseUtcOffset(value: string): number {
  const hours = Number(value.slice(1, 3));
  const minutes = Number(value.slice(4, 6));
  const east = hours * 60 + minutes;
  if (![0, 15, 30, 45].includes(minutes) || (value.startsWith('-') ? east > 12 * 60 : east > 14 * 60)) {
    throw new ConfigError(
      `REPORT_UTC_OFFSET: "${value}" is not an offset from -12:00 to +14:00 in quarter hours (e.g. +08:00, -03:30, +05:45)`,
    );
  }
  // -00:00 is UTC too, and 0 rather than -0
  return (value.startsWith('-') && east > 0 ? -east : east) * 60_000;
}

/** An origin as browsers send it in `Origin`: no trailing slash. */
const withoutTrailingSlash = (value: string) => value.replace(/\/$/, '');

const HOST_LABEL = /^[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;

/**
 * HOST as a listen takes it: an IP address, or a host name (labels of letters, digits, hyphens and
 * underscores, up to 63 characters each) whose last label is not all digits, which would be read as an
 * address (RFC 1123 §2.1). Whether a name resolves, and an address is this machine's, is known only
 * by binding it, which the services try before their slow start (assertCanListen).
 */
function assertHost(host: string): void {
  if (isIP(host)) return;
  const labels = host.replace(/\.$/, '').split('.');
  if (host.length <= 253 && labels.every((l) => HOST_LABEL.test(l)) && !/^[0-9]+$/.test(labels.at(-1)!))
    return;
  const what = /^[0-9.]+$/.test(host)
    ? 'not an IPv4 address (four numbers from 0 to 255)'
    : /^\[.*\]$/.test(host)
      ? 'written in brackets: give the IPv6 address without them'
      : 'neither an IP address nor a host name';
  throw new ConfigError(
    `HOST ${JSON.stringify(host)} is ${what}: set HOST to one of this machine's addresses (127.0.0.1, or 0.0.0.0 for every interface)`,
  );
}

/**
 * An http(s) URL with a host (`http://` would make covers `http:/res/...`; a space or a port past 65535
 * is refused as well); an origin is a URL with nothing after its host and port.
 */
function assertHttpUrl(name: string, value: string, origin = false): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const ok =
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.hostname !== '' &&
    (!origin || withoutTrailingSlash(value) === url.origin);
  if (!ok)
    throw new ConfigError(
      `${name}: ${JSON.stringify(value)} is not ${origin ? 'an origin (scheme://host[:port])' : 'an http(s) URL with a host'}`,
    );
}
