import { invalid, ShelfParam } from '@readlib/contracts';
import { Value } from '@sinclair/typebox/value';

/**
 * The `shelf` parameter as {openId, fileName} (decisions.md §3). The query string is decoded once by
 * the server; clients that encodeURIComponent the JSON before building the URL send it encoded twice,
 * so one more decode is tried when the text is not JSON yet. Anything else is error_code 2.
 */
export function parseShelfParam(raw: string): ShelfParam {
  const value = parseJson(raw) ?? parseJson(decodeOnce(raw));
  if (value === undefined) throw invalid('shelf must be a URL-encoded JSON object {openId, fileName}');
  if (!Value.Check(ShelfParam, value)) {
    throw invalid('shelf needs non-empty string fields openId and fileName');
  }
  // a JSON-escaped \u0000 passes the query-level guard; PostgreSQL refuses NUL in text (a 500 before)
  if (value.openId.includes('\u0000') || value.fileName.includes('\u0000')) {
    throw invalid('shelf fields may not contain NUL characters');
  }
  return { openId: value.openId, fileName: value.fileName };
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function decodeOnce(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
