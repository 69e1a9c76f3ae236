import type { ReactNode } from 'react';

/** The bottom toolbar of a room: named groups of buttons (spec section 2's menu groups). */
export function Toolbar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="room-toolbar" role="toolbar" aria-label={label}>
      {children}
    </div>
  );
}

export function ToolbarGroup({ name, label, children }: { name: string; label: string; children: ReactNode }) {
  return (
    <div className="room-toolbar__group" role="group" aria-label={label} data-group={name}>
      {children}
    </div>
  );
}
