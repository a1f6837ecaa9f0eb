import { expect } from 'vitest';
import { ApiError } from '../src/index.js';

/** Awaits a call that must reject with an ApiError, and returns that error for the assertions. */
export async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}
