import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { useRuntimeConfig } from '@/config/runtime';
import { useLocalePath } from '@/lib/i18n';
import { customerStore, isLoggedIn } from '@/lib/shop/customer';
import { joinProblemOf, joinProblemPath, type DeniedState } from '../api/join-problem';
import { loadBasicSetting, prejoinProblem, type BasicSetting } from '../api/prejoin-check';

/**
 * The pre-join check (pre-join and invitation screens): before a name and consent are
 * asked, an unknown, ended or closed appointment, or one for customers only to someone
 * not logged in, goes to the screen that says so (customers-only with login and
 * registration). Answers whether the form may show; a check that cannot be made lets it
 * show (the join refuses as before).
 */
export function usePrejoinCheck(appointmentId: string): boolean {
  const config = useRuntimeConfig();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const known = useStore(customerStore, (state) => state.status === 'known');
  const loggedIn = useStore(customerStore, (state) => isLoggedIn(state.customer));
  const [setting, setSetting] = useState<BasicSetting | 'unchecked' | null>(null);

  useEffect(() => {
    let current = true;
    loadBasicSetting(config, appointmentId)
      .then((found) => current && setSetting(found))
      .catch((error: unknown) => {
        if (!current) return;
        const problem = joinProblemOf(error);
        if (problem) {
          const state: DeniedState = { reason: problem };
          void navigate(localePath(`/presentation/${appointmentId}${joinProblemPath(problem)}`), { replace: true, state });
        } else setSetting('unchecked');
      });
    return () => {
      current = false;
    };
  }, [config, appointmentId, navigate, localePath]);

  const problem = setting && setting !== 'unchecked' && known ? prejoinProblem(setting, loggedIn) : null;
  useEffect(() => {
    if (!problem) return;
    const state: DeniedState = { reason: problem };
    void navigate(localePath(`/presentation/${appointmentId}${joinProblemPath(problem)}`), { replace: true, state });
  }, [problem, appointmentId, navigate, localePath]);

  return setting === 'unchecked' || (!!setting && known && !problem);
}
