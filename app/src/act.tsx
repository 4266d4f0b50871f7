import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { ApiError, post } from './api';
import { ErrorNote, Problem } from './error-note';
import { problemOf } from './hooks';

/** A fresh Idempotency-Key: one per act the person fills in. */
export const newIdempotencyKey = (): string => crypto.randomUUID();

/**
 * A write a screen offers (an act: open a shoe, record a coup, issue a marker). One act at a time
 * per form. The act's Idempotency-Key is made when it is first sent and kept while the service has
 * not answered (a network failure), so pressing the button again sends the same act, never a second
 * one; an answer (done or refused) ends the act and the next send is a new one. A refusal is the
 * service's code, shown by `ActProblem` in the screen's language.
 */
export function useAct() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const pending = useRef<{ key: string; path: string; body: string } | null>(null);
  const send = async <T,>(path: string, body: unknown): Promise<T | null> => {
    const text = JSON.stringify(body);
    // Same act again after no answer: same key. Anything else: a new act.
    if (!pending.current || pending.current.path !== path || pending.current.body !== text) pending.current = { key: newIdempotencyKey(), path, body: text };
    setBusy(true);
    setProblem(null);
    try {
      const answer = await post<T>(path, body, pending.current.key);
      pending.current = null;
      return answer;
    } catch (e) {
      if (e instanceof ApiError) pending.current = null;
      setProblem(problemOf(e));
      return null;
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, send, clear: () => setProblem(null) };
}

/** What an act's form shows under its button: the refusal, or nothing. */
export function ActProblem({ problem }: { problem: Problem | null }) {
  return <ErrorNote problem={problem} />;
}

/** A confirmation that an act was recorded, announced to a screen reader. */
export function Done({ children, testId }: { children: ComponentChildren; testId?: string }) {
  return (
    <p role="status" class="done" data-testid={testId}>
      {children}
    </p>
  );
}

/**
 * What came of an act, under its form: the form's own objection (a field the screen could not read,
 * said before anything is sent), the service's refusal, or the confirmation.
 */
export function Outcome({ local, problem, done, testId }: { local?: string | null; problem: Problem | null; done?: string | null; testId?: string }) {
  return (
    <>
      {local && (
        <p role="alert" class="error">
          {local}
        </p>
      )}
      <ActProblem problem={problem} />
      {done && <Done testId={testId}>{done}</Done>}
    </>
  );
}

/**
 * A part of a screen given to acts: its heading (h2 on a screen of its own, h3 inside a desk's
 * part), the hint that says what the acts do, their forms.
 */
export function ActPart({ id, title, hint, level = 2, children }: { id: string; title: string; hint?: string; level?: 2 | 3; children: ComponentChildren }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby={id} data-testid={id}>
      <Heading id={id}>{title}</Heading>
      {hint && <p class="hint">{hint}</p>}
      {children}
    </section>
  );
}

/** A field of an act's form: its label around its control (a line of text, a choice). */
export function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <label>
      {label}
      {children}
    </label>
  );
}

/** A line of text typed into an act's form (a date where `type` says so); `mode` the keypad a tablet shows. */
export function Text({
  name,
  value,
  onInput,
  required,
  type,
  mode,
}: {
  name: string;
  value: string;
  onInput: (v: string) => void;
  required?: boolean;
  type?: 'date';
  mode?: 'decimal' | 'numeric';
}) {
  if (type === 'date') return <input name={name} type="date" required={required} value={value} onInput={(e) => onInput(e.currentTarget.value)} />;
  return <input name={name} inputMode={mode} autoComplete="off" required={required} value={value} onInput={(e) => onInput(e.currentTarget.value)} />;
}

/** A form of one act: its fields and its button; sending never reloads the page. */
export function ActForm({
  label,
  testId,
  busy,
  button,
  onSubmit,
  children,
}: {
  label: string;
  testId?: string;
  busy: boolean;
  button: string;
  onSubmit: () => void;
  children: ComponentChildren;
}) {
  return (
    <form
      class="act"
      aria-label={label}
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <button type="submit" disabled={busy}>
        {button}
      </button>
    </form>
  );
}

/** A labelled line of text: `Field` around `Text`. */
export function TextField({ label, ...text }: { label: string } & Parameters<typeof Text>[0]) {
  return (
    <Field label={label}>
      <Text {...text} />
    </Field>
  );
}

/** The currency of an act's amount, chosen among those the property deals in. */
export function CurrencyChoice({ label, currencies, value, onChange }: { label: string; currencies: string[]; value: string; onChange: (c: string) => void }) {
  return (
    <Field label={label}>
      <select name="currency" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {currencies.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </Field>
  );
}
