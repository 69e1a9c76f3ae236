import { ApiClientError } from '@shopware/api-client';

/** Why a join was refused; each has its own screen. */
export type JoinProblem = 'notFound' | 'restricted' | 'locked' | 'ended' | 'notAccessible' | 'denied';

const BY_CODE: Record<string, JoinProblem> = {
  DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND: 'notFound',
  DIGITAL_SALES_ROOMS__APPOINTMENT_RESTRICTED: 'restricted',
  DIGITAL_SALES_ROOMS__APPOINTMENT_LOCKED: 'locked',
  DIGITAL_SALES_ROOMS__APPOINTMENT_ENDED: 'ended',
  DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_ACCESSIBLE: 'notAccessible',
};

/** The join problem behind a failed join-as-client call; null when it is not a refusal (retry). */
export function joinProblemOf(error: unknown): JoinProblem | null {
  if (!(error instanceof ApiClientError)) return null;
  const codes = ((error.details as { errors?: { code?: string }[] } | undefined)?.errors ?? []).map((entry) => entry.code);
  for (const code of codes) {
    const problem = code ? BY_CODE[code] : undefined;
    if (problem) return problem;
  }
  if (error.status === 404) return 'notFound';
  if (error.status === 403) return 'denied';
  return null;
}

/** The path of a problem's screen, below `/presentation/{id}`; the denied screen reads the problem from the navigation state. */
export function joinProblemPath(problem: JoinProblem): string {
  return problem === 'notFound' ? '/not-found' : '/denied';
}

/** The navigation state the denied screen reads its reason from. */
export interface DeniedState {
  reason: JoinProblem;
}
