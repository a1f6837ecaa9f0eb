import { BookCreateBody, BookUpdateBody, MaxLength } from '@readlib/contracts';
import { describe, expect, it } from 'vitest';
import { TEXT_FIELDS } from './book-form.state';
import { FIELD_LIMITS, fieldProblem, LANGUAGE_TAG, lengthProblem, maxLengthOf } from './field-rules';

describe('the limits of the book form', () => {
  it("are the contracts' schema's, for every field the form sends", () => {
    for (const field of [...TEXT_FIELDS, 'categoryText'] as const) {
      const schema = BookUpdateBody.properties[field] as { maxLength?: number };
      expect(maxLengthOf(field), field).toBe(schema.maxLength);
      expect(maxLengthOf(field), field).toBe(
        (BookCreateBody.properties[field] as { maxLength?: number }).maxLength,
      );
    }
    expect(FIELD_LIMITS.title).toBe(MaxLength.text);
    expect(FIELD_LIMITS.language).toBe(MaxLength.code);
  });

  it('a title is required; values over the limit are refused, counted in code points', () => {
    expect(fieldProblem('title', '  ', 'Alice')).toEqual({ key: 'edit.titleRequired' });
    const max = MaxLength.text;
    expect(fieldProblem('title', 'x'.repeat(max + 1))).toEqual({ key: 'edit.tooLong', params: { max } });
    expect(fieldProblem('title', 'x'.repeat(max))).toBeUndefined();
    // 256 characters outside the BMP are 512 UTF-16 units, and still within the limit
    expect(fieldProblem('author', '𝔸'.repeat(MaxLength.text))).toBeUndefined();
  });

  it("a new category's name is held to categoryText's limit, as the text fields to theirs", () => {
    const max = maxLengthOf('categoryText')!;
    expect(lengthProblem('categoryText', 'x'.repeat(max + 1))).toEqual({
      key: 'edit.tooLong',
      params: { max },
    });
    expect(lengthProblem('categoryText', ` ${'x'.repeat(max)} `)).toBeUndefined();
  });

  it('a language is a BCP 47-like code, or empty', () => {
    for (const ok of ['en', 'zh-CN', 'zh-Hans-CN', 'pt-BR', 'yue', 'en-GB-oxendict', 'es-419', ''])
      expect(fieldProblem('language', ok), ok).toBeUndefined();
    for (const bad of ['english please', 'zh_CN', 'e', '中文', 'en-', '-en', 'en--GB', 'x'.repeat(40)])
      expect(fieldProblem('language', bad), bad).toBeDefined();
    expect(LANGUAGE_TAG.test('fr')).toBe(true);
  });

  it('a value the book already had passes as it is (an imported language such as "English")', () => {
    expect(fieldProblem('language', 'English', 'English')).toBeUndefined();
    expect(fieldProblem('language', 'English!', 'English')).toEqual({ key: 'edit.languageInvalid' });
  });
});
