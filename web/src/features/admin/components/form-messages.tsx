import { Notice } from './admin-page';

/** The general messages of a form (see `useEntityForm`). */
export function FormMessages({ lines }: { lines: string[] }) {
  if (!lines.length) return null;
  return (
    <Notice>
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </Notice>
  );
}
