import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readItem, StorageKey, writeItem } from '../lib/storage';

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

/**
 * Messages come in chunks of their own, one language at a time: the shell's and the sign-in pages' before
 * the first render, every other page's with the first such page.
 */
type MessagePart = 'signIn' | 'pages';
const MESSAGES: Record<Language, Record<MessagePart, () => Promise<object>>> = {
  en: {
    signIn: async () => (await import('./english-sign-in')).englishSignIn,
    pages: async () => (await import('./english-pages')).englishPages,
  },
  zh: {
    signIn: async () => (await import('./chinese-sign-in')).chineseSignIn,
    pages: async () => (await import('./chinese-pages')).chinesePages,
  },
};
const wantedParts = new Set<MessagePart>(['signIn']);
const loads = new Map<string, Promise<void>>();

/** Fetches the wanted parts of a language's messages that are not in yet (each once; again after a failure). */
export async function loadMessages(language: Language): Promise<void> {
  await Promise.all(
    [...wantedParts].map((part) => {
      const key = `${language}.${part}`;
      let load = loads.get(key);
      if (!load) {
        load = MESSAGES[language][part]().then((messages) => {
          i18n.addResourceBundle(language, 'translation', messages, true, true);
        });
        load.catch(() => loads.delete(key));
        loads.set(key, load);
      }
      return load;
    }),
  );
}

/** Every page but the sign-in ones awaits this before it renders. */
export function loadPageMessages(): Promise<void> {
  wantedParts.add('pages');
  return loadMessages(currentLanguage());
}

i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
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
  await loadMessages(language);
  await i18n.changeLanguage(language);
  applyDocumentLanguage(language);
}

export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : 'en');
