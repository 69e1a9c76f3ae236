// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '@/lib/i18n';
import { modalStore } from '@/lib/ui/modal';
import { RoomSidebar } from './room-sidebar';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('RoomSidebar', () => {
  let host: HTMLDivElement;
  let root: Root;
  let toggle: HTMLButtonElement;

  beforeAll(() => initI18n('en-US'));

  beforeEach(() => {
    toggle = document.createElement('button');
    document.body.append(toggle);
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });

  afterEach(() => {
    act(() => root.unmount());
    host.remove();
    toggle.remove();
    modalStore.getState().close();
  });

  const escape = () => act(() => void document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));

  it('takes the focus, closes on Escape and gives the focus back', () => {
    const onClose = vi.fn();
    toggle.focus();
    act(() => root.render(<RoomSidebar title="Likes" onClose={onClose}>content</RoomSidebar>));
    const section = host.querySelector('section');
    expect(document.activeElement).toBe(section);
    expect(section?.getAttribute('aria-labelledby')).toBe(host.querySelector('h2')?.id);
    expect(host.querySelector('button')?.getAttribute('aria-label')).toBe('Close Likes');
    escape();
    expect(onClose).toHaveBeenCalledTimes(1);
    act(() => root.render(<></>));
    expect(document.activeElement).toBe(toggle);
  });

  it('leaves Escape to a modal that is open above it', () => {
    const onClose = vi.fn();
    act(() => root.render(<RoomSidebar title="Cart" onClose={onClose}>content</RoomSidebar>));
    modalStore.getState().open('details', { title: 'A product' });
    escape();
    expect(onClose).not.toHaveBeenCalled();
    modalStore.getState().close();
    escape();
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
