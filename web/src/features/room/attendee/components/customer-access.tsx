import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { LoginForm } from '@/components/account/login-form';
import { RegisterForm } from '@/components/account/register-form';
import '@/components/account/auth-card.css';
import { useDocumentTitle } from '@/lib/head';
import { useLocalePath } from '@/lib/i18n';

/** Where a login or registration for a presentation continues: its pre-join screen, the name filled in. */
function usePrejoin() {
  const { appointmentId = '' } = useParams();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const prejoin = localePath(`/presentation/${appointmentId}/prejoin`);
  return { appointmentId, prejoin, toPrejoin: () => void navigate(prejoin, { replace: true }) };
}

/** `/presentation/{id}/login`: the shop's customer login (with forgot password), then the pre-join screen. */
export function PresentationLogin() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const { appointmentId, prejoin, toPrejoin } = usePrejoin();
  useDocumentTitle(t('presentation.customerLoginTitle'));
  return (
    <section className="card auth-card">
      <h1>{t('presentation.customerLoginTitle')}</h1>
      <p className="muted">{t('presentation.customerLoginLead')}</p>
      <LoginForm embedded titled={false} onLoggedIn={toPrejoin} />
      <p className="auth-card__switch">
        {t('presentation.noAccount')} <Link to={localePath(`/presentation/${appointmentId}/register`)}>{t('presentation.register')}</Link>
      </p>
      <p className="auth-card__switch">
        <Link to={prejoin}>{t('presentation.backToPrejoin')}</Link>
      </p>
    </section>
  );
}

/** `/presentation/{id}/register`: the shop's registration, then the pre-join screen. */
export function PresentationRegister() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const { appointmentId, prejoin, toPrejoin } = usePrejoin();
  useDocumentTitle(t('presentation.customerRegisterTitle'));
  return (
    <section className="card auth-card auth-card--wide">
      <h1>{t('presentation.customerRegisterTitle')}</h1>
      <RegisterForm embedded titled={false} onRegistered={toPrejoin} />
      <p className="auth-card__switch">
        {t('presentation.haveAccount')} <Link to={localePath(`/presentation/${appointmentId}/login`)}>{t('presentation.logIn')}</Link>
      </p>
      <p className="auth-card__switch">
        <Link to={prejoin}>{t('presentation.backToPrejoin')}</Link>
      </p>
    </section>
  );
}

/** The way to a customer login from the pre-join and refusal screens. */
export function CustomerAccessLinks({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  return (
    <span className="customer-access">
      {t('presentation.haveAccount')} <Link to={localePath(`/presentation/${appointmentId}/login`)}>{t('presentation.logIn')}</Link>
      {' · '}
      {t('presentation.noAccount')} <Link to={localePath(`/presentation/${appointmentId}/register`)}>{t('presentation.register')}</Link>
    </span>
  );
}
