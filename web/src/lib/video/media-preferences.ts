import { createStore } from 'zustand/vanilla';

/** Background effects: no effect, the three blur levels of spec section 9, or a virtual background. */
export type BackgroundEffect = 'none' | 'light' | 'medium' | 'strong' | 'virtual';

/** Blur radius in pixels per level. */
export const BLUR_RADIUS: Record<'light' | 'medium' | 'strong', number> = { light: 5, medium: 12, strong: 24 };

export interface MediaPreferences {
  cameraId: string | null;
  microphoneId: string | null;
  cameraEnabled: boolean;
  microphoneEnabled: boolean;
  effect: BackgroundEffect;
  /** The picture of the virtual background (a bundled image's URL or an uploaded one as a data URL); null: the built-in gradient. */
  backgroundImage: string | null;
}

interface MediaPreferencesState extends MediaPreferences {
  update(patch: Partial<MediaPreferences>): void;
  reset(): void;
}

const DEFAULTS: MediaPreferences = {
  cameraId: null,
  microphoneId: null,
  cameraEnabled: true,
  microphoneEnabled: true,
  effect: 'none',
  backgroundImage: null,
};

export function createMediaPreferencesStore(initial: Partial<MediaPreferences> = {}) {
  return createStore<MediaPreferencesState>()((set) => ({
    ...DEFAULTS,
    ...initial,
    update: (patch) => set(patch),
    reset: () => set(DEFAULTS),
  }));
}

/** The devices and effect this browser tab uses in every room. */
export const mediaPreferences = createMediaPreferencesStore();
