import { describe, expect, it, vi } from 'vitest';
import { NavigationError, nonFatalNotFound, runMiddleware, type Middleware, type NavigationTarget } from './middleware';

const to: NavigationTarget = { path: '/de-DE/guide/demo', fullPath: '/de-DE/guide/demo?x=1', params: { appointmentId: 'demo' } };

describe('runMiddleware', () => {
  it('runs global then named middleware in order', async () => {
    const calls: string[] = [];
    const mark = (name: string): Middleware => () => void calls.push(name);
    const outcome = await runMiddleware(to, null, [mark('g1'), mark('g2')], ['b', 'a'], { a: mark('a'), b: mark('b') });
    expect(outcome).toEqual({ kind: 'continue' });
    expect(calls).toEqual(['g1', 'g2', 'b', 'a']);
  });

  it('passes the target and the previous target', async () => {
    const spy = vi.fn();
    const from = { ...to, path: '/' };
    await runMiddleware(to, from, [spy], [], {});
    expect(spy).toHaveBeenCalledWith(to, from);
  });

  it('raises Unknown route middleware for a name without middleware, before running any', async () => {
    const global = vi.fn();
    await expect(runMiddleware(to, null, [global], ['nope'], {})).rejects.toThrow('Unknown route middleware: nope');
    expect(global).not.toHaveBeenCalled();
  });

  it.each([
    ['false', false],
    ['an error', new Error('denied')],
  ])('turns %s into a page-not-found error and stops', async (_, result) => {
    const after = vi.fn();
    const error = await runMiddleware(to, null, [() => result as never, after], [], {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NavigationError);
    expect(error).toMatchObject({ statusCode: 404, message: 'Page Not Found: /de-DE/guide/demo', fatal: true });
    expect(after).not.toHaveBeenCalled();
  });

  it('ends the chain with any other value, which becomes the navigation result', async () => {
    const after = vi.fn();
    const outcome = await runMiddleware(to, null, [async () => '/login', after], [], {});
    expect(outcome).toEqual({ kind: 'redirect', to: '/login' });
    expect(after).not.toHaveBeenCalled();
  });

  it('lets true and undefined continue', async () => {
    const after = vi.fn();
    await runMiddleware(to, null, [() => true, () => undefined, after], [], {});
    expect(after).toHaveBeenCalledOnce();
  });
});

describe('nonFatalNotFound', () => {
  it('is a non-fatal 404 naming the full path', () => {
    expect(nonFatalNotFound('/a?b=1')).toMatchObject({ statusCode: 404, message: 'Page not found: /a?b=1', fatal: false });
  });
});
