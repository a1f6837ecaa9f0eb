import type { ErrorKind } from './error-codes.js';

/**
 * A failure the client caused or should know about. Services throw it; the HTTP layer turns its kind
 * into the status and envelope code of decisions.md §2. `msg` is shown to clients, so no internals.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const invalid = (message: string) => new AppError('invalid', message);
