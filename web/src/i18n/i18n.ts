import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readItem, StorageKey, writeItem } from '../lib/storage';
import { resources } from './resources';

export const LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

const isLanguage = (value: string | null): value is Language => LANGUAGES.includes(value as Language);

/** The remembered choice, else the browser's language (Chinese when it starts with zh). */
export function detectLanguage(): Language {
  const stored = readItem(StorageKey.language);
  if (isLanguage(stored)) return stored;
  const browser = typeof navigator === 'undefined' ? '' : navigator.language || '';
  return browser.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export const i18n = i18next.createInstance();

i18n.use(initReactI18next).init({
  resources,
  lng: detectLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  initAsync: false,
});

function applyDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

applyDocumentLanguage(i18n.language);

export async function changeLanguage(language: Language): Promise<void> {
  writeItem(StorageKey.language, language);
  await i18n.changeLanguage(language);
  applyDocumentLanguage(language);
}

export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : 'en');
