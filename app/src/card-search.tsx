import { useEffect, useState } from 'preact/hooks';

/** A player card asked for by number: what is typed is sent only on submit (every read of a patron is audited). */
export function CardSearch({
  label,
  field,
  button,
  card,
  onSearch,
}: {
  label: string;
  field: string;
  button: string;
  card: string;
  onSearch: (card: string) => void;
}) {
  const [typed, setTyped] = useState(card);
  useEffect(() => setTyped(card), [card]);
  return (
    <form
      class="range"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(typed.trim());
      }}
    >
      <label>
        {field}
        <input name="card" value={typed} autoComplete="off" onInput={(e) => setTyped(e.currentTarget.value)} required />
      </label>
      <button type="submit">{button}</button>
    </form>
  );
}
