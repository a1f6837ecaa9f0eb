import { describe, expect, it } from 'vitest';
import { createI18n } from 'vue-i18n';
import { en } from './en.messages';
import { initialLocale } from './locale';
import { zhCN } from './zh-cn.messages';

describe('the language the console starts in', () => {
  it('is Chinese when the browser prefers Chinese to English, else English', () => {
    expect(initialLocale(null, ['zh-CN', 'en-US'])).toBe('zh-CN');
    expect(initialLocale(null, ['zh-TW'])).toBe('zh-CN');
    expect(initialLocale(null, ['fr-FR', 'zh', 'en'])).toBe('zh-CN');
    expect(initialLocale(null, ['en-GB', 'zh-CN'])).toBe('en');
    expect(initialLocale(null, ['fr-FR', 'de'])).toBe('en');
    expect(initialLocale(null, [])).toBe('en');
  });

  it("is the operator's earlier choice when there is one", () => {
    expect(initialLocale('en', ['zh-CN'])).toBe('en');
    expect(initialLocale('zh-CN', ['en-US'])).toBe('zh-CN');
    expect(initialLocale('klingon', ['zh-CN'])).toBe('zh-CN');
  });

  it('has every English text in Chinese too, none left empty', () => {
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    expect(keys(zhCN)).toEqual(keys(en));
    const empty = (o: object): boolean =>
      Object.values(o).some((v) => (typeof v === 'object' ? empty(v) : String(v).trim() === ''));
    expect(empty(zhCN)).toBe(false);
  });

  it('counts books in the forms of each language: "1 book", "2 books", "共 1 本"', () => {
    const i18n = createI18n({ legacy: false, locale: 'en', messages: { en, 'zh-CN': zhCN } });
    const { t } = i18n.global;
    expect(t('books.total', { n: 1 }, 1)).toBe('1 book');
    expect(t('books.total', { n: 0 }, 0)).toBe('0 books');
    expect(t('books.total', { n: 28 }, 28)).toBe('28 books');
    i18n.global.locale.value = 'zh-CN';
    expect(t('books.total', { n: 1 }, 1)).toBe('共 1 本');
    expect(t('books.total', { n: 28 }, 28)).toBe('共 28 本');
  });
});
