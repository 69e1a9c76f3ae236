/** The device problems of spec section 8, each an i18n key under `video.errors.`. */
export type DeviceError =
  | 'permissionsDenied'
  | 'unknown'
  | 'cameraInUse'
  | 'microphoneInUse'
  | 'cameraAndMicrophoneInUse'
  | 'noDeviceFound';

/** Which devices a request asked for. */
export interface DeviceKinds {
  camera: boolean;
  microphone: boolean;
}

const DENIED = ['NotAllowedError', 'PermissionDeniedError', 'SecurityError'];
const MISSING = ['NotFoundError', 'DevicesNotFoundError', 'OverconstrainedError', 'ConstraintNotSatisfiedError'];
const IN_USE = ['NotReadableError', 'TrackStartError', 'AbortError'];

function nameOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string' ? error.name : '';
}

/**
 * Maps a `getUserMedia` failure to a device error. `busy` says which of the requested
 * devices are in use, when that is known; else every requested device counts as busy.
 */
export function deviceErrorOf(error: unknown, busy: DeviceKinds): DeviceError {
  const name = nameOf(error);
  if (DENIED.includes(name)) return 'permissionsDenied';
  if (MISSING.includes(name)) return 'noDeviceFound';
  if (IN_USE.includes(name)) {
    if (busy.camera && busy.microphone) return 'cameraAndMicrophoneInUse';
    if (busy.camera) return 'cameraInUse';
    if (busy.microphone) return 'microphoneInUse';
  }
  return 'unknown';
}

export type GetUserMedia = (constraints: MediaStreamConstraints) => Promise<MediaStream>;

export type MediaResult = { ok: true; stream: MediaStream } | { ok: false; error: DeviceError };

function stopAll(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

/** Whether a device of this kind can be opened on its own right now. */
async function isBusy(getUserMedia: GetUserMedia, constraints: MediaStreamConstraints): Promise<boolean> {
  try {
    stopAll(await getUserMedia(constraints));
    return false;
  } catch (error) {
    return IN_USE.includes(nameOf(error));
  }
}

/**
 * Opens the camera and/or microphone. When a device is in use it asks for each kind on
 * its own to tell the camera, the microphone or both apart.
 */
export async function requestMedia(
  kinds: DeviceKinds & { cameraId?: string; microphoneId?: string },
  getUserMedia: GetUserMedia = (constraints) => navigator.mediaDevices.getUserMedia(constraints),
): Promise<MediaResult> {
  const video: MediaStreamConstraints['video'] = kinds.camera && (kinds.cameraId ? { deviceId: { exact: kinds.cameraId } } : true);
  const audio: MediaStreamConstraints['audio'] =
    kinds.microphone && (kinds.microphoneId ? { deviceId: { exact: kinds.microphoneId } } : true);
  if (!video && !audio) return { ok: false, error: 'noDeviceFound' };
  try {
    return { ok: true, stream: await getUserMedia({ video, audio }) };
  } catch (error) {
    let busy: DeviceKinds = { camera: kinds.camera, microphone: kinds.microphone };
    if (IN_USE.includes(nameOf(error)) && video && audio) {
      const [camera, microphone] = await Promise.all([
        isBusy(getUserMedia, { video, audio: false }),
        isBusy(getUserMedia, { video: false, audio }),
      ]);
      // Neither alone is busy: it was the pair; say both.
      busy = camera || microphone ? { camera, microphone } : busy;
    }
    return { ok: false, error: deviceErrorOf(error, busy) };
  }
}
