import { createI18n } from 'vue-i18n';
import { en } from './en.messages';
import { initialLocale, type Locale, savedLocale, saveLocale } from './locale';
import { zhCN } from './zh-cn.messages';

const startLocale = initialLocale(savedLocale(), navigator.languages ?? [navigator.language]);

export const i18n = createI18n({
  legacy: false,
  locale: startLocale,
  fallbackLocale: 'en',
  messages: { en, 'zh-CN': zhCN },
});

/** The page's language and the browser tab's title (index.html's is the English one) follow the console's. */
function showLocale(locale: Locale): void {
  document.documentElement.lang = locale;
  document.title = i18n.global.t('app.title');
}
showLocale(startLocale);

/** Switches the console's language (and Element Plus's, through App's config provider) and remembers it. */
export function setLocale(locale: Locale): void {
  i18n.global.locale.value = locale;
  showLocale(locale);
  saveLocale(locale);
}
