import { Keep, Versions } from '@readlib/cache';
import { type Database, operatorsStamp, operatorTokenVersion } from '@readlib/data';
import type { Kysely } from 'kysely';

/** How many operators' token versions an admin process keeps (a deployment has a handful). */
const KEPT_OPERATORS = 1000;

/**
 * Whether a token still speaks for its operator: the operator exists and its credentials have not been
 * reset since the token was issued (`ver`, absent in tokens of older builds: version 0). Every
 * administration request asks. Where the database tells when an operator changes (PostgreSQL listening
 * for commits: `operatorsStamp`), each operator's token version is kept until one does, so a request
 * sends no statement for it; a reset by another process (the CLI) refuses the old tokens once its
 * notification is heard. Elsewhere it is read every time.
 */
export class OperatorTokens {
  readonly versions = new Versions<'operators'>(['operators']);
  private readonly kept = new Keep<'operators', number, number | null>(this.versions, {
    name: "operators' token versions",
    key: 'operator id',
    dependsOn: ['operators'],
    max: KEPT_OPERATORS,
  });

  constructor(private readonly db: Kysely<Database>) {}

  async stillValid(claims: { sub?: unknown; ver?: unknown }): Promise<boolean> {
    const id = Number(claims.sub);
    if (typeof claims.sub !== 'string' || !Number.isSafeInteger(id) || id <= 0) return false;
    this.versions.observe('operators', operatorsStamp(this.db));
    const current = await this.kept.read(
      id,
      this.versions.seen,
      async () => (await operatorTokenVersion(this.db, id)) ?? null,
    );
    return current !== null && current === (claims.ver ?? 0);
  }
}
