import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
}

export interface ConnectRedisOptions {
  /** shown in CLIENT LIST, so an operator sees which service holds a connection */
  name?: string;
  connectTimeoutMs?: number;
  /** a command unanswered this long fails (default REDIS_COMMAND_TIMEOUT_MS) */
  commandTimeoutMs?: number;
}

/**
 * A command Redis does not answer within this fails, so the rate limiter skips and caches compute. An
 * outage that closes the connection fails commands at once; one that leaves it open (a partition, a
 * stopped primary) would hold every request of every replica until TCP gave up.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** The URL without its password, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'REDIS_URL';
  }
}

/**
 * A client that fails fast: while Redis is away every command errors at once instead of queueing, so
 * the rate limiter skips, caches compute and readiness reports the outage, and requests keep answering.
 * It reconnects on its own. Start-up is strict: an unreachable Redis is an error naming the URL.
 */
export async function connectRedis(url: string, opts: ConnectRedisOptions = {}): Promise<Redis> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: opts.connectTimeoutMs ?? 2000,
    commandTimeout: opts.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
    keepAlive: 10_000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    ...(opts.name ? { connectionName: opts.name } : {}),
  });
  // until watchRedis attaches a logger: without a listener ioredis prints every failed reconnect;
  // the socket's error (ECONNREFUSED, ...) says more than the "Connection is closed" connect() rejects with
  let cause: Error | undefined;
  const remember = (err: Error) => {
    cause ??= err;
  };
  client.on('error', remember);
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    client.disconnect();
    throw new RedisUnavailableError(
      `Redis at ${redactRedisUrl(url)} is unreachable (${(cause ?? (err as Error)).message}): start Redis or fix REDIS_URL`,
    );
  }
  // ioredis only emits a refused SELECT (a database number past the server's `databases`) and goes on
  // in database 0, among another deployment's keys; its reply comes before the PING's, so it is known here
  if (cause) {
    client.disconnect();
    throw new RedisUnavailableError(
      `Redis at ${redactRedisUrl(url)} refused the connection's setup (${cause.message}): fix REDIS_URL`,
    );
  }
  client.off('error', remember);
  client.on('error', () => {});
  return client;
}

/** Logs the first error of an outage and the recovery, not every reconnect attempt. */
export function watchRedis(client: Redis, log: FastifyBaseLogger, what = 'redis'): void {
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.warn({ err: err.message }, `${what} unavailable: rate limits skip, caches compute, /readyz fails`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info(`${what} available again`);
  });
}

/** Whether Redis answers a PING within `timeoutMs` (for /readyz). */
export async function redisAnswers(client: Redis, timeoutMs = 1000): Promise<boolean> {
  if (client.status !== 'ready') return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([client.ping().then((r) => r === 'PONG'), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * QUIT when connected (pending replies arrive first), else just drop the socket; a QUIT unanswered
 * within the command timeout drops it too: a Redis that stopped answering held the shutdown for good.
 */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status !== 'ready') return client.disconnect();
  await client.quit().catch(() => client.disconnect());
}
