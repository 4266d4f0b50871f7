import { ErrorNote } from './error-note';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, session, Schemas } from './api';
import { PitOverview } from './pit';
import { Scoreboard } from './scoreboard';
import { Finance } from './finance';
import { Yield } from './yield';
import './style.css';

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

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    session.signIn(key.trim());
    try {
      await get<Schemas['TableDto'][]>('/v1/tables');
      onSignedIn();
    } catch (err) {
      session.signOut();
      setError(err instanceof ApiError ? err.message : 'The service did not answer');
    }
  };
  return (
    <main class="sign-in">
      <h1>Sabot</h1>
      <form onSubmit={(e) => void submit(e)}>
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} required />
        <button type="submit">Sign in</button>
        <ErrorNote message={error} />
      </form>
      <p class="hint">Use a key your administrator made for you. It is kept only in this browser tab.</p>
    </main>
  );
}

function App() {
  const [signedIn, setSignedIn] = useState(session.key() !== null);
  const route = useRoute();
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  const [screen, id] = route;
  return (
    <>
      <header class="top">
        <a class="brand" href="#/pit">
          Sabot
        </a>
        <nav aria-label="Screens">
          <a href="#/pit" aria-current={screen === 'pit' || !screen ? 'page' : undefined}>
            Pit overview
          </a>
          <a href="#/finance" aria-current={screen === 'finance' ? 'page' : undefined}>
            Finance
          </a>
          <a href="#/yield" aria-current={screen === 'yield' ? 'page' : undefined}>
            Yield
          </a>
        </nav>
        <button
          class="link"
          onClick={() => {
            session.signOut();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      {screen === 'tables' && id ? <Scoreboard tableId={id} /> : screen === 'finance' ? <Finance /> : screen === 'yield' ? <Yield /> : <PitOverview />}
    </>
  );
}

render(<App />, document.getElementById('root')!);
