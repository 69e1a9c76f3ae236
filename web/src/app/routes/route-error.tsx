import { isRouteErrorResponse, useRevalidator, useRouteError } from 'react-router';
import { ErrorView } from '@/components/error-view';
import { reduceError } from '@/lib/api/errors';
import { NavigationError } from '@/lib/router/middleware';

/** The status code of whatever a route threw. */
export function statusOfRouteError(error: unknown): number {
  if (error instanceof NavigationError) return error.statusCode;
  if (isRouteErrorResponse(error)) return error.status;
  return reduceError(error).statusCode;
}

/** A route's error element: the error page for its status, inside the layout. */
export function RouteError() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  const statusCode = statusOfRouteError(error);
  if (statusCode !== 404) console.error(error);
  return (
    <div className="container">
      <ErrorView statusCode={statusCode} onRetry={() => void revalidator.revalidate()} />
    </div>
  );
}
