import { EPUB_ERROR_CODES } from '@readlib/epub/errors';
import { ApiError } from '@readlib/sdk';
import { describe, expect, it } from 'vitest';
import { createI18n } from 'vue-i18n';
import { en } from '../i18n/en.messages';
import { zhCN } from '../i18n/zh-cn.messages';
import { explain, headline } from './explain-error';

const refusal = (init: Partial<ConstructorParameters<typeof ApiError>[0]>) =>
  new ApiError({ family: 'admin', status: 400, code: -1, msg: 'x', kind: 'failure', ...init });

/** The headline as the console shows it, in one language. */
function shown(locale: 'en' | 'zh-CN', error: unknown): string {
  const i18n = createI18n({ legacy: false, locale, messages: { en, 'zh-CN': zhCN } });
  const { t, te } = i18n.global;
  return headline(explain(error), t as (k: string, v?: Record<string, unknown>) => string, (k) => te(k));
}

describe("a failed call in the operator's words", () => {
  it("names the refusal and quotes the service's message", () => {
    expect(explain(refusal({ status: 409, kind: 'conflict', msg: 'book exists', requestId: 'r-1' }))).toEqual(
      {
        key: 'errors.conflict',
        params: {},
        serverMsg: 'book exists',
        requestId: 'r-1',
        sessionEnded: false,
      },
    );
    expect(explain(refusal({ status: 422, kind: 'unsafe_archive', msg: 'path escapes' })).key).toBe(
      'errors.unsafe_archive',
    );
  });

  it('a generic failure keeps the service message under a generic headline', () => {
    expect(explain(refusal({ msg: 'something odd happened' }))).toMatchObject({
      key: 'errors.other',
      serverMsg: 'something odd happened',
    });
  });

  it("a proxy's own error page: its status under a headline of its own, never its markup", () => {
    const page =
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1>';
    // the kind the SDK gives it follows the status and code -1 (admin: failure), whatever the page says
    const error = refusal({ status: 502, kind: 'failure', msg: page });
    expect(explain(error)).toEqual({
      key: 'errors.notTheService',
      params: { status: 502 },
      requestId: undefined,
      sessionEnded: false,
    });
    expect(shown('en', error)).toBe(
      'The admin service did not answer: something in front of it (a proxy) replied with HTTP 502. Try again in a moment; if it lasts, the service may be stopped.',
    );
    expect(shown('zh-CN', error)).toContain('HTTP 502');
    // a text answer that is no envelope is still quoted
    expect(explain(refusal({ status: 500, kind: 'unknown', msg: 'upstream timed out' }))).toMatchObject({
      key: 'errors.other',
      serverMsg: 'upstream timed out',
    });
  });

  it('no answer at all: no service message to quote', () => {
    expect(explain(refusal({ status: 0, kind: 'network', msg: 'fetch failed' }))).toMatchObject({
      key: 'errors.network',
      serverMsg: undefined,
    });
  });

  it('an ended session is left to the login page', () => {
    expect(explain(refusal({ status: 401, code: -2, kind: 'unauthorized' })).sessionEnded).toBe(true);
    expect(explain(new Error('boom'))).toEqual({ key: 'errors.other', params: {}, sessionEnded: false });
  });
});

describe('the service messages the console recognises, in both languages', () => {
  it('the upload refusals by their EPUB code', () => {
    const notZip = refusal({
      status: 415,
      kind: 'unsupported_media',
      msg: 'NOT_A_ZIP: the file is not a ZIP archive (an EPUB is a ZIP file)',
    });
    expect(explain(notZip)).toMatchObject({ key: 'errors.epub.NOT_A_ZIP', serverMsg: notZip.msg });
    expect(shown('zh-CN', notZip)).toBe(zhCN.errors.epub.NOT_A_ZIP);
    expect(shown('en', notZip)).toBe(en.errors.epub.NOT_A_ZIP);
    const unsafe = refusal({ status: 422, kind: 'unsafe_archive', msg: 'UNSAFE_PATH: entry ../x escapes' });
    expect(explain(unsafe).key).toBe('errors.epub.UNSAFE_PATH');
    // an upper-case word that is no EPUB code is not taken for one
    expect(explain(refusal({ status: 415, kind: 'unsupported_media', msg: 'HTTP: no' })).key).toBe(
      'errors.unsupported_media',
    );
  });

  it('the schema checks: a field too long, named by its label', () => {
    const long = refusal({ msg: 'invalid parameter: body/title must NOT have more than 256 characters' });
    expect(explain(long)).toMatchObject({ key: 'errors.tooLong', params: { field: 'title', max: 256 } });
    expect(shown('en', long)).toBe('Title is too long: at most 256 characters.');
    expect(shown('zh-CN', long)).toBe('书名过长：最多 256 个字符。');
    const pattern = refusal({ msg: 'invalid parameter: body/category must match pattern "^[0-9]+$"' });
    expect(shown('en', pattern)).toBe('The service does not accept this value of category.');
    expect(explain(refusal({ msg: 'invalid parameter: body must NOT have additional properties' })).key).toBe(
      'errors.invalid',
    );
  });

  it('a blank or refused field of the catalogue', () => {
    const blank = refusal({ msg: 'title must not be blank' });
    expect(shown('en', blank)).toBe('Title cannot be empty.');
    expect(shown('zh-CN', blank)).toBe('书名不能为空。');
    expect(shown('zh-CN', refusal({ msg: 'categoryText must not be blank' }))).toBe('新分类名称不能为空。');
    expect(
      shown('en', refusal({ msg: "cover must be empty or a URL of this service's /res/ files, not x" })),
    ).toBe('The service does not accept this value of Cover URL.');
  });

  it('rate limiting with the wait it asks for: from Retry-After, else from the message', () => {
    const login = refusal({
      status: 429,
      kind: 'rate_limited',
      msg: 'too many login attempts, retry in 44 s',
      retryAfter: 44,
    });
    expect(explain(login).params).toEqual({ seconds: 44 });
    expect(shown('zh-CN', login)).toBe('尝试次数过多，请在 44 秒后重试。');
    expect(shown('en', login)).toBe('Too many attempts: try again in 44 s.');
    const noHeader = refusal({ status: 429, kind: 'rate_limited', msg: 'too many requests, retry in 9 s' });
    expect(explain(noHeader).params).toEqual({ seconds: 9 });
    expect(explain(refusal({ status: 429, kind: 'rate_limited', msg: 'slow down' })).key).toBe(
      'errors.rate_limited',
    );
  });

  it('a file too large is named, with its size, when the caller says which it was', () => {
    const tooLarge = refusal({
      status: 413,
      kind: 'too_large',
      msg: 'the file is larger than the upload limit of 150 MiB',
    });
    const file = { name: 'huge.epub', size: '160 MB' };
    expect(explain(tooLarge, { file })).toMatchObject({
      key: 'errors.too_largeFile',
      params: file,
      serverMsg: tooLarge.msg,
    });
    const i18n = createI18n({ legacy: false, locale: 'en', messages: { en, 'zh-CN': zhCN } });
    const { t, te } = i18n.global;
    const say = t as (k: string, v?: Record<string, unknown>) => string;
    expect(headline(explain(tooLarge, { file }), say, (k) => te(k))).toContain('“huge.epub” (160 MB)');
    i18n.global.locale.value = 'zh-CN';
    expect(headline(explain(tooLarge, { file }), say, (k) => te(k))).toContain('“huge.epub”（160 MB）');
    // without the file, the kind alone
    expect(explain(tooLarge).key).toBe('errors.too_large');
  });

  it('an expired upload, a file name taken', () => {
    const expired = refusal({
      status: 404,
      kind: 'not_found',
      msg: 'the upload b_1 expired (UPLOAD_GRACE_MINUTES): upload the file again',
    });
    expect(explain(expired).key).toBe('errors.uploadExpired');
    expect(explain(refusal({ status: 409, kind: 'conflict', msg: 'a book named b_1 exists' })).key).toBe(
      'errors.nameTaken',
    );
  });

  it('has a message for every refusal code of the EPUB reader, in both languages', () => {
    // the package's own list: a code it adds fails here until both languages say it
    expect(Object.keys(en.errors.epub).sort()).toEqual([...EPUB_ERROR_CODES].sort());
    expect(Object.keys(zhCN.errors.epub).sort()).toEqual([...EPUB_ERROR_CODES].sort());
  });
});
