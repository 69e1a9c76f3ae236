/** What a navigation middleware sees: where the navigation goes and where it comes from. */
export interface NavigationTarget {
  /** Path without query, with locale prefix, e.g. `/de-DE/guide/demo`. */
  path: string;
  /** Path with query string. */
  fullPath: string;
  params: Record<string, string | undefined>;
}

/**
 * A middleware's answer: `undefined` or `true` lets the chain go on; `false` or an
 * `Error` stops the navigation with a page-not-found error; any other value (a path to
 * go to) ends the chain and becomes the navigation result.
 */
export type MiddlewareResult = void | undefined | boolean | Error | string;

export type Middleware = (
  to: NavigationTarget,
  from: NavigationTarget | null,
) => MiddlewareResult | Promise<MiddlewareResult>;

export type NavigationOutcome = { kind: 'continue' } | { kind: 'redirect'; to: string };

/** Raised when a navigation cannot be served; `statusCode` says how (404 for not found). */
export class NavigationError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fatal = true,
  ) {
    super(message);
    this.name = 'NavigationError';
  }
}

export function pageNotFound(path: string): NavigationError {
  return new NavigationError(404, `Page Not Found: ${path}`);
}

/** The non-fatal 404 raised after a navigation no route matched. */
export function nonFatalNotFound(fullPath: string): NavigationError {
  return new NavigationError(404, `Page not found: ${fullPath}`, false);
}

/**
 * Runs the global middleware, then the route's named middleware, in order (spec
 * section 4). An unknown name raises 'Unknown route middleware: {name}'.
 */
export async function runMiddleware(
  to: NavigationTarget,
  from: NavigationTarget | null,
  global: readonly Middleware[],
  names: readonly string[],
  registry: Readonly<Record<string, Middleware>>,
): Promise<NavigationOutcome> {
  const chain = [
    ...global,
    ...names.map((name) => {
      const middleware = registry[name];
      if (!middleware) throw new Error(`Unknown route middleware: ${name}`);
      return middleware;
    }),
  ];
  for (const middleware of chain) {
    const result = await middleware(to, from);
    if (result === undefined || result === true) continue;
    if (result === false || result instanceof Error) throw pageNotFound(to.path);
    return { kind: 'redirect', to: result };
  }
  return { kind: 'continue' };
}
