import type { ReactNode } from 'react';

/** A page that only says something: not found, denied, cannot start. */
export function MessageScreen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card message">
      <h1>{title}</h1>
      <p>{children}</p>
    </section>
  );
}
