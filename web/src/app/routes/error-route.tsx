import { useSearchParams } from 'react-router';
import { ErrorView } from '@/components/error-view';

/** `/error`: the error page; `?statusCode=` picks which one (default 500). */
export function Component() {
  const [params] = useSearchParams();
  const statusCode = Number(params.get('statusCode') ?? 500);
  return (
    <div className="container">
      <ErrorView statusCode={Number.isInteger(statusCode) ? statusCode : 500} />
    </div>
  );
}
