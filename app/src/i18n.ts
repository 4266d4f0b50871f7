import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/**
 * The screens' languages. Each screen keeps its own words beside its code, one object per
 * language of the same shape (TypeScript refuses a language that misses a word), and reads them
 * with `useT`. Numbers, money and dates go through the platform's Intl APIs (format.ts). A new
 * language is a line here and its words in each screen.
 */
export const LANGS = [
  { code: 'en', name: 'English', locale: 'en' },
  { code: 'zh-Hant', name: '繁體中文', locale: 'zh-Hant-HK' },
  { code: 'zh-Hans', name: '简体中文', locale: 'zh-Hans-CN' },
] as const;
export type Lang = (typeof LANGS)[number]['code'];
/** A screen's words in every language. */
export type Words<T> = Record<Lang, T>;

export const localeOf = (lang: Lang): string => LANGS.find((l) => l.code === lang)!.locale;

const isLang = (v: string | null): v is Lang => LANGS.some((l) => l.code === v);
const KEY = 'sabot.lang';

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * The language a screen opens in: the one last chosen on that screen, else the one last chosen on
 * any, else the browser's (Traditional for zh-TW, zh-HK and zh-MO, Simplified for other Chinese).
 */
export function langFor(screen: string): Lang {
  for (const v of [stored(`${KEY}.${screen}`), stored(KEY)]) if (isLang(v)) return v;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const t = tag.toLowerCase();
    if (t.startsWith('zh')) return /hant|tw|hk|mo/.test(t) ? 'zh-Hant' : 'zh-Hans';
    if (t.startsWith('en')) return 'en';
  }
  return 'en';
}

/** Remembers the language chosen on a screen (and as the default for screens not yet switched). */
export function rememberLang(screen: string, lang: Lang): void {
  try {
    localStorage.setItem(`${KEY}.${screen}`, lang);
    localStorage.setItem(KEY, lang);
  } catch {
    // private browsing: the choice lasts as long as the page
  }
}

export const LangContext = createContext<Lang>('en');
/** Switches the language of the screen shown (and remembers it for that screen). */
export const SetLangContext = createContext<(lang: Lang) => void>(() => undefined);

export const useLang = (): Lang => useContext(LangContext);

/** The screen's words in the language it is shown in. */
export function useT<T>(words: Words<T>): T {
  return words[useContext(LangContext)];
}
