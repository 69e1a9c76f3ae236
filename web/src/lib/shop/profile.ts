import { shopClient } from '@/lib/shop/session';

export async function changeProfile(body: { salutationId?: string; firstName: string; lastName: string }): Promise<void> {
  await shopClient().invoke('changeProfile post /account/change-profile', { body: body });
}

export async function changeEmail(body: { email: string; emailConfirmation: string; password: string }): Promise<void> {
  await shopClient().invoke('changeEmail post /account/change-email', { body });
}

export async function changePassword(body: { password: string; newPassword: string; newPasswordConfirm: string }): Promise<void> {
  await shopClient().invoke('changePassword post /account/change-password', { body });
}

/** Mails a reset link `{storefrontUrl}/account/recover/password?hash=…` (storefrontUrl with locale prefix). */
export async function sendRecoveryMail(email: string, storefrontUrl: string): Promise<void> {
  await shopClient().invoke('sendRecoveryMail post /account/recovery-password', { body: { email, storefrontUrl } });
}

export async function resetPassword(hash: string, newPassword: string, newPasswordConfirm: string): Promise<void> {
  await shopClient().invoke('recoveryPassword post /account/recovery-password-confirm', { body: { hash, newPassword, newPasswordConfirm } });
}

/** Newsletter status of the customer: optIn, direct, notSet, optOut or undefined. */
export async function newsletterStatus(): Promise<string> {
  const { data } = await shopClient().invoke('readNewsletterRecipient post /account/newsletter-recipient', { body: {} });
  return (data as { status?: string }).status ?? 'undefined';
}

/** Subscribed unless optOut or undefined (spec section 4). */
export const isSubscribed = (status: string | null | undefined): boolean => !!status && status !== 'optOut' && status !== 'undefined';

/** Waiting for the confirmation by mail (spec section 4). */
export const needsConfirmation = (status: string | null | undefined): boolean => status === 'notSet';

export async function subscribeNewsletter(email: string, storefrontUrl: string): Promise<string> {
  const { data } = await shopClient().invoke('subscribeToNewsletter post /newsletter/subscribe', {
    body: { email, option: 'subscribe', storefrontUrl },
  });
  return (data as { status?: string } | undefined)?.status ?? 'notSet';
}

export async function unsubscribeNewsletter(email: string): Promise<void> {
  await shopClient().invoke('unsubscribeToNewsletter post /newsletter/unsubscribe', { body: { email } });
}

export async function confirmNewsletter(em: string, hash: string): Promise<void> {
  await shopClient().invoke('confirmNewsletter post /newsletter/confirm', { body: { em, hash } });
}
