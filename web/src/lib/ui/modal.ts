import type { ReactNode } from 'react';
import { createStore } from 'zustand/vanilla';

export interface ModalOptions {
  /** Heading of the dialog; also its accessible name. */
  title: string;
  /** A static backdrop: neither Escape nor a click outside closes the dialog. */
  static?: boolean;
  size?: 'small' | 'medium' | 'large';
}

export interface OpenModal extends ModalOptions {
  id: number;
  content: ReactNode;
}

interface ModalState {
  modal: OpenModal | null;
  open(content: ReactNode, options: ModalOptions): number;
  close(): void;
  /** Escape or a click on the backdrop: closes unless the backdrop is static. */
  dismiss(): boolean;
}

export function createModalStore() {
  let nextId = 1;
  return createStore<ModalState>()((set, get) => ({
    modal: null,
    open(content, options) {
      const id = nextId++;
      set({ modal: { ...options, id, content } });
      return id;
    },
    close() {
      set({ modal: null });
    },
    dismiss() {
      const { modal } = get();
      if (!modal || modal.static) return false;
      set({ modal: null });
      return true;
    },
  }));
}

export const modalStore = createModalStore();
