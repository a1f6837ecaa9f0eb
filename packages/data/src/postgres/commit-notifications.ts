import { randomUUID } from 'node:crypto';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type PostgresDialectConfig,
  type QueryResult,
} from 'kysely';
import pg from 'pg';
import { isLogsOnly } from '../statement-marks.js';
import { closeWithin } from './client-socket.js';

/**
 * The channel the commit triggers (migration 2026-11-26T1200-commit-notifications) notify, per schema:
 * deployments or tests sharing a database in different schemas do not hear each other.
 */
export function commitChannel(schema: string): string {
  return `readlib_commit:${schema}`;
}

/**
 * The payload of the notifications of commits that change operators (migration
 * 2026-11-27T1200-operator-notifications); those of the tables readers keep have none.
 */
export const OPERATORS_CHANGED = 'operators';

/** Longest wait between two attempts to listen again after the listening connection was lost. */
const RETRY_MAX_MS = 30_000;
const RETRY_FIRST_MS = 250;

export interface CommitListenerOptions {
  /** the pool's connection settings: the same server, database and search_path */
  client: pg.ClientConfig;
  /**
   * told once when listening stops (the stamp is unknown until it listens again), not again for each
   * attempt that fails while it stays down
   */
  onLost?: (err: Error) => void;
  /** told when it listens again after onLost */
  onRestored?: () => void;
}

/**
 * A commit stamp for PostgreSQL, which has no commit counter a client can read without a round trip:
 * a counter of this process moved by every notification of a commit to a table reader answers are made
 * of (any process; the triggers notify at commit) and by this process's own writes (`moved`, called by
 * the dialect below as soon as a write statement or a commit returns). While the listening connection
 * is down the stamp is unknown (undefined), so nothing depending on it is reused; once it listens
 * again the stamp moves, since commits of that gap were not heard.
 *
 * What it promises is weaker than SQLite's wal-index stamp by the notification's delivery: another
 * process's commit is seen when its notification arrives, not at the instant it commits.
 */
export class CommitListener {
  private count = 0;
  /** moved by the notifications of commits to operators, and by this process's own writes */
  private operatorCount = 0;
  private listening = false;
  /** onLost was told of the outage under way */
  private reported = false;
  private closed = false;
  private client: pg.Client | undefined;
  private retryMs = RETRY_FIRST_MS;
  private timer: NodeJS.Timeout | undefined;
  /** resolves once the first attempt to listen has succeeded or failed */
  readonly ready: Promise<void>;

  constructor(private readonly options: CommitListenerOptions) {
    this.ready = this.listen();
  }

  /** undefined while not listening: every read is then made anew, as without notifications */
  stamp(): number | undefined {
    return this.listening ? this.count : undefined;
  }

  /**
   * Like `stamp`, for the operators alone: it moves with a commit that changes an operator (any
   * process) and with every write of this process, not with the commits readers cause.
   */
  operatorsStamp(): number | undefined {
    return this.listening ? this.operatorCount : undefined;
  }

  /** A commit of this process: later reads of this process see it, so the stamps move now. */
  moved(): void {
    this.count++;
    this.operatorCount++;
  }

  /** the server process of the listening connection (undefined while not listening) */
  get backendPid(): number | undefined {
    return this.listening
      ? (this.client as unknown as { processID?: number } | undefined)?.processID
      : undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    clearTimeout(this.timer);
    const client = this.client;
    if (client)
      await closeWithin(
        client.end().catch(() => {}),
        () => [client],
      );
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ ...this.options.client, application_name: 'readlib-commit-listener' });
    this.client = client;
    client.on('notification', (n) => {
      this.count++;
      if (n.payload === OPERATORS_CHANGED) this.operatorCount++;
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('the listening connection ended')));
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
      const channel = commitChannel(rows[0]!.schema);
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      await hearsItself(client, channel);
      if (this.closed || this.client !== client) return;
      // whatever was committed before it listened was not heard
      this.moved();
      this.listening = true;
      this.retryMs = RETRY_FIRST_MS;
      if (this.reported) {
        this.reported = false;
        this.options.onRestored?.();
      }
    } catch (err) {
      this.lost(client, err as Error);
    }
  }

  private lost(client: pg.Client, err: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    client.removeAllListeners('notification');
    client.end().catch(() => {});
    if (this.closed) return;
    if (!this.reported) {
      this.reported = true;
      this.options.onLost?.(err);
    }
    this.timer = setTimeout(() => void this.listen(), this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
  }
}

/** How long the listener waits to hear its own first notification. */
const SELF_TEST_MS = 2000;

/**
 * Listening counts only once a notification sent on the channel comes back. Through a pooler in
 * transaction mode (PgBouncer) LISTEN is accepted but its notifications go to whichever client holds
 * the server connection then, so the stamp would never move for other processes' commits: kept
 * answers would go stale for ever. Such a listener is refused here, and the reader reads the versions
 * at every request instead (point DATABASE_URL past the pooler to listen).
 */
export async function hearsItself(client: pg.Client, channel: string): Promise<void> {
  const nonce = randomUUID();
  let timer: NodeJS.Timeout | undefined;
  let notice: ((n: pg.Notification) => void) | undefined;
  const heard = new Promise<void>((resolve, reject) => {
    notice = (n) => {
      if (n.payload === nonce) resolve();
    };
    client.on('notification', notice);
    timer = setTimeout(
      () => reject(new Error('LISTEN did not hear its own notification (a pooler in transaction mode?)')),
      SELF_TEST_MS,
    );
  });
  try {
    await client.query('select pg_notify($1, $2)', [channel, nonce]);
    await heard;
  } finally {
    clearTimeout(timer);
    if (notice) client.off('notification', notice);
  }
}

/**
 * Kysely's PostgreSQL dialect telling `moved` when a statement that writes (insert, update, delete,
 * also inside a `with`) has returned, and when a transaction that wrote has committed (writes of logs
 * alone do not count: writesLogsOnly): the stamp of this process's own writes moves before their callers read.
 */
export class CommitTellingDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly moved: () => void,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const moved = this.moved;
    const telling = new WeakMap<DatabaseConnection, DatabaseConnection>();
    return bound(driver, {
      acquireConnection: async () => {
        const connection = await driver.acquireConnection();
        let wrapped = telling.get(connection);
        if (!wrapped) {
          // whether the connection's transaction wrote a row readers keep: its commit moves the stamp
          let wroteKept = false;
          wrapped = bound(connection, {
            executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
              const result = await connection.executeQuery<R>(query);
              const { sql } = query;
              if (sql === 'begin' || sql.startsWith('start transaction') || sql === 'rollback') {
                wroteKept = false;
              } else if (sql === 'commit') {
                if (wroteKept) moved();
                wroteKept = false;
              } else if ((result.numAffectedRows !== undefined || writesInWith(sql)) && !isLogsOnly(sql)) {
                wroteKept = true;
                moved();
              }
              return result;
            },
          });
          telling.set(connection, wrapped);
        }
        return wrapped;
      },
    });
  }
}

/**
 * A statement whose top is a select but whose `with` writes (recordViews): pg reports no affected rows
 * for it, so its text tells.
 */
function writesInWith(sql: string): boolean {
  return /^\s*with\b/i.test(sql) && /\b(insert|update|delete)\b/i.test(sql);
}

/**
 * `target` with some methods replaced; every other property is the target's own, its methods bound to
 * it (Kysely's driver and connection keep private fields, which a method called on a proxy cannot read).
 */
function bound<T extends object>(target: T, replaced: Partial<T>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (prop in replaced) return replaced[prop as keyof T];
      const value = Reflect.get(t, prop, t);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}
