import { describe, expect, it, vi } from 'vitest';
import { deviceErrorOf, requestMedia, type GetUserMedia } from './device-errors';

const both = { camera: true, microphone: true };
const failure = (name: string) => Object.assign(new Error(name), { name });
const fakeStream = () => ({ getTracks: () => [{ stop: vi.fn() }] }) as unknown as MediaStream;

describe('deviceErrorOf', () => {
  it('maps refusals to permissions denied', () => {
    for (const name of ['NotAllowedError', 'PermissionDeniedError', 'SecurityError']) {
      expect(deviceErrorOf(failure(name), both)).toBe('permissionsDenied');
    }
  });

  it('maps missing devices to no device found', () => {
    for (const name of ['NotFoundError', 'DevicesNotFoundError', 'OverconstrainedError', 'ConstraintNotSatisfiedError']) {
      expect(deviceErrorOf(failure(name), both)).toBe('noDeviceFound');
    }
  });

  it('tells which device is in use', () => {
    const busy = failure('NotReadableError');
    expect(deviceErrorOf(busy, both)).toBe('cameraAndMicrophoneInUse');
    expect(deviceErrorOf(busy, { camera: true, microphone: false })).toBe('cameraInUse');
    expect(deviceErrorOf(busy, { camera: false, microphone: true })).toBe('microphoneInUse');
    expect(deviceErrorOf(failure('TrackStartError'), { camera: true, microphone: false })).toBe('cameraInUse');
    // Firefox reports a device that another application holds as AbortError.
    expect(deviceErrorOf(failure('AbortError'), { camera: false, microphone: true })).toBe('microphoneInUse');
  });

  it('maps anything else to the unknown device error', () => {
    expect(deviceErrorOf(failure('TypeError'), both)).toBe('unknown');
    expect(deviceErrorOf('boom', both)).toBe('unknown');
    expect(deviceErrorOf(failure('NotReadableError'), { camera: false, microphone: false })).toBe('unknown');
  });
});

describe('requestMedia', () => {
  it('reports no device found when none was asked for or none exists', async () => {
    const getUserMedia = vi.fn<GetUserMedia>().mockRejectedValue(failure('NotFoundError'));
    await expect(requestMedia({ camera: false, microphone: false }, getUserMedia)).resolves.toEqual({ ok: false, error: 'noDeviceFound' });
    expect(getUserMedia).not.toHaveBeenCalled();
    await expect(requestMedia(both, getUserMedia)).resolves.toEqual({ ok: false, error: 'noDeviceFound' });
  });

  it('says the microphone is in use when only it fails alone', async () => {
    const getUserMedia = vi.fn<GetUserMedia>(async ({ audio }) => {
      if (audio) throw failure('NotReadableError');
      return fakeStream();
    });
    await expect(requestMedia(both, getUserMedia)).resolves.toEqual({ ok: false, error: 'microphoneInUse' });
  });

  it('reports an unknown failure as the unknown device error', async () => {
    const getUserMedia = vi.fn<GetUserMedia>().mockRejectedValue(new TypeError('no media'));
    await expect(requestMedia(both, getUserMedia)).resolves.toEqual({ ok: false, error: 'unknown' });
  });

  it('returns the stream when the devices open', async () => {
    const stream = fakeStream();
    const getUserMedia = vi.fn<GetUserMedia>().mockResolvedValue(stream);
    await expect(requestMedia(both, getUserMedia)).resolves.toEqual({ ok: true, stream });
    expect(getUserMedia).toHaveBeenCalledWith({ video: true, audio: true });
  });

  it('asks for the chosen devices exactly', async () => {
    const getUserMedia = vi.fn<GetUserMedia>().mockResolvedValue(fakeStream());
    await requestMedia({ ...both, cameraId: 'cam-2', microphoneId: 'mic-3' }, getUserMedia);
    expect(getUserMedia).toHaveBeenCalledWith({ video: { deviceId: { exact: 'cam-2' } }, audio: { deviceId: { exact: 'mic-3' } } });
  });

  it('probes each device to find the one in use', async () => {
    const getUserMedia = vi.fn<GetUserMedia>(async ({ video, audio }) => {
      if (video) throw failure('NotReadableError');
      if (audio) return fakeStream();
      throw failure('TypeError');
    });
    await expect(requestMedia(both, getUserMedia)).resolves.toEqual({ ok: false, error: 'cameraInUse' });
  });

  it('says both are in use when only the pair fails', async () => {
    const getUserMedia = vi.fn<GetUserMedia>(async ({ video, audio }) => {
      if (video && audio) throw failure('NotReadableError');
      return fakeStream();
    });
    await expect(requestMedia(both, getUserMedia)).resolves.toEqual({ ok: false, error: 'cameraAndMicrophoneInUse' });
  });

  it('reports a denied permission without probing', async () => {
    const getUserMedia = vi.fn<GetUserMedia>().mockRejectedValue(failure('NotAllowedError'));
    await expect(requestMedia(both, getUserMedia)).resolves.toEqual({ ok: false, error: 'permissionsDenied' });
    expect(getUserMedia).toHaveBeenCalledTimes(1);
  });
});
