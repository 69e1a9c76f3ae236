import { useEffect, type ReactNode } from 'react';
import { useLargeScreen } from '../utils/large-screen';
import './room-shell.css';

interface RoomShellProps {
  header: ReactNode;
  left?: ReactNode;
  right?: ReactNode;
  toolbar?: ReactNode;
  children: ReactNode;
}

/**
 * The presentation room: header, stage, optional left and right sidebars and a bottom
 * toolbar. On large screens (from 1024 px) modals leave room for the sidebars and the
 * toolbar (the offsets are CSS variables on the body).
 */
export function RoomShell({ header, left, right, toolbar, children }: RoomShellProps) {
  const large = useLargeScreen();
  useEffect(() => {
    const { body } = document;
    body.classList.toggle('has-room-offset', large);
    body.style.setProperty('--room-left', large && left ? 'var(--room-sidebar-width)' : '0px');
    body.style.setProperty('--room-right', large && right ? 'var(--room-sidebar-width)' : '0px');
    body.style.setProperty('--room-bottom', large && toolbar ? 'var(--room-toolbar-height)' : '0px');
    return () => {
      body.classList.remove('has-room-offset');
      for (const name of ['--room-left', '--room-right', '--room-bottom']) body.style.removeProperty(name);
    };
  }, [large, left, right, toolbar]);

  return (
    <div className="room" data-large={large} data-left={!!left} data-right={!!right}>
      <div className="room__header">{header}</div>
      <div className="room__body">
        {left && <aside className="room__left">{left}</aside>}
        <section className="room__stage">{children}</section>
        {right && <aside className="room__right">{right}</aside>}
      </div>
      {toolbar && <div className="room__toolbar">{toolbar}</div>}
    </div>
  );
}
