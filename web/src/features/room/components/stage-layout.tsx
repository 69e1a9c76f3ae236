import type { ReactNode } from 'react';
import './stage-layout.css';

/**
 * The room's stage: the slide and what comes with it, and the product in focus with its
 * controls. A wide stage puts the product in focus in a column beside the slide (in view
 * without scrolling, while the slide keeps the rest of the width); a narrow one puts it
 * above the slide.
 */
export function StageLayout({ className, focus, children }: { className: string; focus?: ReactNode; children: ReactNode }) {
  return (
    <div className={`stage-layout ${className}`} data-focus={!!focus}>
      <div className="stage-layout__main">{children}</div>
      {focus && <div className="stage-layout__focus">{focus}</div>}
    </div>
  );
}
