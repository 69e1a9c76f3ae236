import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '@/config/runtime';
import type { JoinAppointmentResponse, PublicAppointment } from '@/lib/api/shop';
import { loadUpcomingAppointments } from '../api/upcoming';

/**
 * The appointment as the appointments a visitor may join list it
 * (`GET /store-api/dsr/appointments`, named in the request's language), read again on a
 * switch of language; null until read, or when it is not listed (rule-restricted, or the
 * list cannot be read).
 */
export function useListedAppointment(id: string): PublicAppointment | null {
  const config = useRuntimeConfig();
  const { i18n } = useTranslation();
  const [listed, setListed] = useState<{ language: string; appointment: PublicAppointment } | null>(null);
  useEffect(() => {
    let current = true;
    loadUpcomingAppointments(config)
      .then((appointments) => {
        const found = appointments.find((appointment) => appointment.id === id);
        if (current && found) setListed({ language: i18n.language, appointment: found });
      })
      .catch(() => {
        // Not listed: the caller keeps what it has.
      });
    return () => {
      current = false;
    };
  }, [config, id, i18n.language]);
  return listed?.language === i18n.language ? listed.appointment : null;
}

/**
 * The appointment's name in the page's language. The join answered it in the language of
 * the page the attendee joined on, and the tab keeps that answer; after a switch of
 * language (or a reload on the other language's path) the name is read again from the
 * appointments a visitor may join. An appointment not listed there keeps the name of the
 * join.
 */
export function useAppointmentName(joined: Pick<JoinAppointmentResponse, 'id' | 'appointmentName'>): string {
  return useListedAppointment(joined.id)?.name || joined.appointmentName;
}
