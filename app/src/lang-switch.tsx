import { useContext } from 'preact/hooks';
import { Lang, LANGS, SetLangContext, useLang, useT } from './i18n';
import { WORDS } from './words';

/** The language picker: each language named in itself; the choice is remembered for the screen. */
export function LangSwitch() {
  const w = useT(WORDS);
  const lang = useLang();
  const setLang = useContext(SetLangContext);
  return (
    <select class="lang" aria-label={w.language} value={lang} onChange={(e) => setLang(e.currentTarget.value as Lang)}>
      {LANGS.map((l) => (
        <option key={l.code} value={l.code} lang={l.code}>
          {l.name}
        </option>
      ))}
    </select>
  );
}
