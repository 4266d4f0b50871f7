import { ComponentType, render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorNote, Problem } from './error-note';
import { ApiError, get, session, SIGNED_OUT } from './api';
import { Caller, CallerContext, mayCall } from './caller';
import { problemOf } from './hooks';
import { Lang, LangContext, langFor, rememberLang, SetLangContext, useT } from './i18n';
import { LangSwitch } from './lang-switch';
import { WORDS } from './words';
import './style.css';
import type { ScreenProps } from './screen';

type ScreenId = keyof (typeof WORDS)['en']['screens'] | 'tables' | 'desk' | 'display' | 'key';

/**
 * The screens, each loaded as its own chunk when first opened. A screen is offered to a key whose
 * role may call every operation it `reads` (the service's own x-roles); `nav` screens are linked
 * from the top bar; a `bare` screen (the table-side display) is shown alone, without the staff's bar.
 */
const SCREENS: { id: ScreenId; nav: boolean; bare?: true; reads: string[]; load: () => Promise<ComponentType<ScreenProps>> }[] = [
  { id: 'pit', nav: true, reads: ['listTables', 'listShoes'], load: () => import('./pit').then((m) => m.PitOverview) },
  {
    id: 'finance',
    nav: true,
    reads: ['winLossReport', 'quarterlyStatement', 'listProperties', 'listTables', 'streamTablesEvents'],
    load: () => import('./finance').then((m) => m.Finance),
  },
  { id: 'yield', nav: true, reads: ['yieldAdviceReport', 'yieldEvaluationReport', 'listProperties'], load: () => import('./yield').then((m) => m.Yield) },
  { id: 'surveillance', nav: true, reads: ['openAlertsBy', 'listAlerts', 'getAlert'], load: () => import('./surveillance').then((m) => m.Surveillance) },
  { id: 'patrons', nav: true, reads: ['topPatrons', 'findPatron', 'patronRating', 'patronVisits'], load: () => import('./patrons').then((m) => m.Patrons) },
  { id: 'cage', nav: true, reads: ['listProperties', 'listMarkers'], load: () => import('./cage').then((m) => m.Cage) },
  { id: 'vip', nav: true, reads: ['listProperties', 'listJunkets'], load: () => import('./vip').then((m) => m.Vip) },
  { id: 'credit', nav: true, reads: ['listProperties', 'listCreditRequests'], load: () => import('./credit').then((m) => m.Credit) },
  { id: 'admin', nav: true, reads: ['listStaff', 'listApiKeys', 'listProperties'], load: () => import('./admin').then((m) => m.Admin) },
  { id: 'tables', nav: false, reads: ['getTable', 'getProperty', 'listShoes', 'getShoeRoads'], load: () => import('./scoreboard').then((m) => m.Scoreboard) },
  {
    id: 'desk',
    nav: false,
    reads: ['getTable', 'listShoes', 'getShoe', 'listDealerShifts', 'listSeatings', 'getShoeCommissions', 'listProperties', 'streamTableEvents'],
    load: () => import('./desk').then((m) => m.Desk),
  },
  { id: 'key', nav: false, reads: ['claimApiKey'], load: () => import('./key').then((m) => m.Key) },
  { id: 'display', nav: false, bare: true, reads: ['getTableDisplay'], load: () => import('./display').then((m) => m.Display) },
];

const allowed = (caller: Caller, s: (typeof SCREENS)[number]) => s.reads.every((op) => mayCall(caller, op));

/** The screen named by the address's hash: #/pit, #/tables/<id>, #/finance. */
function useRoute(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

function SignIn({ onSignedIn, refused }: { onSignedIn: (c: Caller) => void; refused: boolean }) {
  const w = useT(WORDS);
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<Problem | null>(refused ? { code: 'UNAUTHENTICATED', message: w.keyRefused } : null);
  const submit = async (e: Event) => {
    e.preventDefault();
    session.signIn(key.trim());
    try {
      const c = await get<Caller>('/v1/api-keys/me');
      session.remember(c);
      onSignedIn(c);
    } catch (err) {
      session.signOut();
      setProblem(problemOf(err));
    }
  };
  return (
    <main class="sign-in">
      <LangSwitch />
      <h1>{w.brand}</h1>
      <form onSubmit={(e) => void submit(e)}>
        <label for="api-key">{w.apiKey}</label>
        <input id="api-key" type="password" autoComplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} required />
        <button type="submit">{w.signIn}</button>
        <ErrorNote problem={problem} />
      </form>
      <p class="hint">{w.keyHint}</p>
    </main>
  );
}

/** Loads a screen's chunk the first time it is shown. */
function Lazy({ load, args }: { load: () => Promise<ComponentType<ScreenProps>>; args: string[] }) {
  const w = useT(WORDS);
  const [Screen, setScreen] = useState<{ c: ComponentType<ScreenProps> } | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  useEffect(() => {
    let shown = true;
    load().then(
      (c) => shown && setScreen({ c }),
      () => shown && setProblem({ code: 'NETWORK', message: w.noAnswer }),
    );
    return () => {
      shown = false;
    };
  }, [load]);
  if (Screen) return <Screen.c args={args} />;
  return (
    <main>
      <ErrorNote problem={problem} />
      {!problem && <p role="status">{w.loading}</p>}
    </main>
  );
}

function Frame({ caller, screen, args, onSignOut }: { caller: Caller; screen: ScreenId; args: string[]; onSignOut: () => void }) {
  const w = useT(WORDS);
  const def = SCREENS.find((s) => s.id === screen);
  const nav = SCREENS.filter((s) => s.nav && allowed(caller, s));
  if (def?.bare && allowed(caller, def)) return <Lazy key={screen} load={def.load} args={args} />;
  return (
    <>
      <header class="top">
        <a class="brand" href={`#/${nav[0]?.id ?? ''}`}>
          {w.brand}
        </a>
        <nav aria-label={w.screensNav}>
          {nav.map((s) => (
            <a key={s.id} href={`#/${s.id}`} aria-current={s.id === screen ? 'page' : undefined}>
              {w.screens[s.id as keyof typeof w.screens]}
            </a>
          ))}
        </nav>
        <LangSwitch />
        <a class="who" href="#/key" aria-current={screen === 'key' ? 'page' : undefined}>
          {caller.name}
        </a>
        <button class="link" onClick={onSignOut}>
          {w.signOut}
        </button>
      </header>
      {def && allowed(caller, def) ? (
        <Lazy key={screen} load={def.load} args={args} />
      ) : (
        <main>
          <h1>{def ? (w.screens[screen as keyof typeof w.screens] ?? w.brand) : w.noSuchScreen}</h1>
          <ErrorNote problem={def ? { code: 'FORBIDDEN', message: w.notAllowed } : { code: 'NOT_FOUND', message: w.noSuchScreen }} />
        </main>
      )}
    </>
  );
}

function App() {
  const route = useRoute();
  const [caller, setCaller] = useState<Caller | null>(null);
  const [checking, setChecking] = useState(session.key() !== null);
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    const out = () => {
      setCaller(null);
      setRefused(true);
    };
    addEventListener(SIGNED_OUT, out);
    return () => removeEventListener(SIGNED_OUT, out);
  }, []);
  useEffect(() => {
    if (!session.key()) return;
    get<Caller>('/v1/api-keys/me').then(
      (c) => {
        session.remember(c);
        setCaller(c);
        setChecking(false);
      },
      (e) => {
        // The service out of reach (not a refusal): the key as it last answered, so the pit keeps dealing.
        const known = e instanceof ApiError ? null : session.remembered<Caller>();
        if (known) setCaller(known);
        else session.signOut();
        setChecking(false);
      },
    );
  }, []);
  const first = (c: Caller): ScreenId =>
    c.role === ('DISPLAY' as string) && c.tableId ? 'display' : (SCREENS.find((s) => s.nav && allowed(c, s))?.id ?? 'pit');
  const screen = (route[0] as ScreenId | undefined) ?? (caller ? first(caller) : 'pit');
  const args = route[0] ? route.slice(1) : caller?.role === ('DISPLAY' as string) && caller.tableId ? [caller.tableId] : [];
  const [lang, setLangState] = useState<Lang>(() => langFor(screen));
  useEffect(() => setLangState(langFor(screen)), [screen]);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const setLang = (l: Lang) => {
    rememberLang(screen, l);
    setLangState(l);
  };
  let body;
  if (checking) body = <p role="status">…</p>;
  else if (!caller)
    body = (
      <SignIn
        refused={refused}
        onSignedIn={(c) => {
          setRefused(false);
          setCaller(c);
        }}
      />
    );
  else
    body = (
      <Frame
        caller={caller}
        screen={screen}
        args={args}
        onSignOut={() => {
          session.signOut();
          setCaller(null);
        }}
      />
    );
  return (
    <LangContext.Provider value={lang}>
      <SetLangContext.Provider value={setLang}>
        <CallerContext.Provider value={caller}>{body}</CallerContext.Provider>
      </SetLangContext.Provider>
    </LangContext.Provider>
  );
}

render(<App />, document.getElementById('root')!);
