import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '@/config/runtime';
import type { JoinAppointmentResponse } from '@/lib/api/shop';
import { loadUpcomingAppointments } from '../api/upcoming';

/**
 * The appointment's name in the page's language. The join answered it in the language of
 * the page the attendee joined on, and the tab keeps that answer; after a switch of
 * language (or a reload on the other language's path) the name is read again from the
 * appointments a visitor may join (`GET /store-api/dsr/appointments`, named in the
 * request's language). An appointment not listed there (rule-restricted, or the list
 * cannot be read) keeps the name of the join.
 */
export function useAppointmentName(joined: Pick<JoinAppointmentResponse, 'id' | 'appointmentName'>): string {
  const config = useRuntimeConfig();
  const { i18n } = useTranslation();
  const [named, setNamed] = useState<{ language: string; name: string } | null>(null);
  useEffect(() => {
    let current = true;
    loadUpcomingAppointments(config)
      .then((appointments) => {
        const found = appointments.find((appointment) => appointment.id === joined.id);
        if (current && found?.name) setNamed({ language: i18n.language, name: found.name });
      })
      .catch(() => {
        // The join's name stays.
      });
    return () => {
      current = false;
    };
  }, [config, joined.id, i18n.language]);
  return named?.language === i18n.language ? named.name : joined.appointmentName;
}
