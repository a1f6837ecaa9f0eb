import { EPUB_ERROR_CODES, type EpubErrorCode } from '@readlib/epub/errors';
import { isApiError } from '@readlib/sdk';

/** What the console tells the operator about a failed call: message keys and the server's own words. */
export interface Explanation {
  /** the `errors.*` message key of the headline */
  key: string;
  /**
   * values of the headline: `field` (a field name as the API spells it, shown by its label), `max`
   * (a length limit), `seconds` (the wait a rate limit asks for), `name` and `size` (the file sent),
   * `status` (the HTTP status of an answer that was not the service's)
   */
  params: { field?: string; max?: number; seconds?: number; name?: string; size?: string; status?: number };
  /** the envelope's `msg`, when the service answered with one */
  serverMsg?: string;
  requestId?: string;
  /** the call was refused for a missing or expired token: the login page takes over */
  sessionEnded: boolean;
}

const HEADLINES = new Set([
  'unauthorized',
  'login_refused',
  'conflict',
  'unsafe_archive',
  'unsupported_media',
  'too_large',
  'not_found',
  'rate_limited',
  'unavailable',
  'internal',
  'network',
  'timeout',
]);

/**
 * The EPUB reader's refusals, which the admin service sends as the start of its message
 * (`NOT_A_ZIP: the file is not a ZIP archive…`, packages/catalog `epubRefusal`); each has a message
 * under `errors.epub`, which explain-error.test.ts checks.
 */
const isEpubCode = (code: string): code is EpubErrorCode =>
  (EPUB_ERROR_CODES as readonly string[]).includes(code);

type Recognised = Pick<Explanation, 'key' | 'params'>;

/**
 * The service's messages the console recognises (packages/http `classify`, packages/catalog), so the
 * headline can say more than the kind: the schema checks' `invalid parameter: body/<field> must NOT
 * have more than <n> characters`, `<field> must not be blank` / `<field> is required`, the upload's
 * `<EPUB code>: …`, an expired upload, a file name taken.
 */
function recognise(msg: string): Recognised | undefined {
  const code = /^([A-Z][A-Z_]+): /.exec(msg)?.[1];
  if (code && isEpubCode(code)) return { key: `errors.epub.${code}`, params: {} };
  const schema = /^invalid parameter: (?:body|querystring|params)\/(\w+) (.*)$/.exec(msg);
  if (schema) {
    const [, field, problem = ''] = schema;
    const longer = /must NOT have more than (\d+) characters/.exec(problem);
    if (longer) return { key: 'errors.tooLong', params: { field, max: Number(longer[1]) } };
    if (/must NOT have fewer than 1 characters/.test(problem))
      return { key: 'errors.blank', params: { field } };
    return { key: 'errors.invalidField', params: { field } };
  }
  if (msg.startsWith('invalid parameter:')) return { key: 'errors.invalid', params: {} };
  const blank = /^(\w+) (?:must not be blank|is required)$/.exec(msg);
  if (blank) return { key: 'errors.blank', params: { field: blank[1] } };
  const refusedValue = /^(\w+) must be /.exec(msg);
  if (refusedValue) return { key: 'errors.invalidField', params: { field: refusedValue[1] } };
  if (/^the upload \S+ expired/.test(msg)) return { key: 'errors.uploadExpired', params: {} };
  if (/^a book named \S+ exists$/.test(msg)) return { key: 'errors.nameTaken', params: {} };
  return undefined;
}

/** Seconds to wait: the SDK's `retryAfter` (the Retry-After header), else the message's `retry in N s`. */
function retrySeconds(retryAfter: number | undefined, msg: string): number | undefined {
  if (retryAfter !== undefined && retryAfter > 0) return retryAfter;
  const said = /retry in (\d+) s/.exec(msg)?.[1];
  return said ? Number(said) : undefined;
}

/** What the caller knows of the call that the refusal does not say. */
export interface CallContext {
  /**
   * the file an upload sent, its size for people (books/file-size.ts): a refusal as too large names
   * them (the service's message, shown under it, names its limit)
   */
  file?: { name: string; size: string };
}

export function explain(error: unknown, context: CallContext = {}): Explanation {
  if (!isApiError(error)) return { key: 'errors.other', params: {}, sessionEnded: false };
  // not the service's answer but a page of what stands before it (a proxy's 502), which the SDK quotes
  // as the message (the service's own messages are text): its status, not its markup
  if (error.status !== 0 && /^\s*</.test(error.msg))
    return {
      key: 'errors.notTheService',
      params: { status: error.status },
      requestId: error.requestId,
      sessionEnded: false,
    };
  const answered = error.status !== 0;
  const msg = answered ? error.msg : '';
  let headline: Recognised = {
    key: `errors.${HEADLINES.has(error.kind) ? error.kind : 'other'}`,
    params: {},
  };
  if (error.kind === 'rate_limited') {
    const seconds = retrySeconds(error.retryAfter, msg);
    if (seconds !== undefined) headline = { key: 'errors.rate_limitedRetry', params: { seconds } };
  } else if (answered && error.kind !== 'unauthorized' && error.kind !== 'login_refused') {
    headline = recognise(msg) ?? headline;
  }
  if (headline.key === 'errors.too_large' && context.file) {
    headline = { key: 'errors.too_largeFile', params: { ...context.file } };
  }
  return {
    ...headline,
    serverMsg: msg || undefined,
    requestId: error.requestId,
    sessionEnded: error.kind === 'unauthorized',
  };
}

/** Translates a field name of the API by the form's label for it, when the console has one. */
export function fieldLabel(field: string, t: (key: string) => string, te: (key: string) => boolean): string {
  if (field === 'categoryText') return t('edit.newCategoryName');
  const key = `edit.fields.${field}`;
  return te(key) ? t(key) : field;
}

/** The headline of an explanation in the current language. */
export function headline(
  explained: Pick<Explanation, 'key' | 'params'>,
  t: (key: string, values?: Record<string, unknown>) => string,
  te: (key: string) => boolean,
): string {
  const { field, ...rest } = explained.params;
  return t(explained.key, { ...rest, ...(field === undefined ? {} : { field: fieldLabel(field, t, te) }) });
}
