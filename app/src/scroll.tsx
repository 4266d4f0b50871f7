import type { ComponentChildren } from 'preact';

/** A region that scrolls sideways on a narrow screen, reachable with the keyboard and named for a screen reader. */
export function Scroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
