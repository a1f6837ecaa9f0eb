import { AppError } from '@readlib/catalog';

export type FetchLike = typeof fetch;

export const upstreamError = (platform: string, reason: string) =>
  new AppError('upstream', `${platform}: ${reason}`);

/**
 * One HTTP call to a login platform, bounded by the configured timeout (body included), so a silent
 * upstream gives error_code 3 instead of a hanging mini-program.
 */
export async function callPlatform(
  platform: string,
  fetchImpl: FetchLike,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<string> {
  try {
    const res = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    if (!res.ok) throw upstreamError(platform, `answered HTTP ${res.status}`);
    return text;
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw upstreamError(platform, `no answer within ${timeoutMs} ms`);
    }
    throw upstreamError(platform, `unreachable (${e.cause?.code ?? e.cause?.message ?? e.message})`);
  }
}

/** The platform's answer as a JSON object, or error_code 3 when it is something else. */
export function parseObject(platform: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw upstreamError(platform, 'answer is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw upstreamError(platform, 'answer is not a JSON object');
  }
  return value as Record<string, unknown>;
}
