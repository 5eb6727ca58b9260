// The texts of a push, in the recipient's language: the same resources the UI uses.
import { en } from '../../lib/i18n/locales/en';
import { es } from '../../lib/i18n/locales/es';
import { fr } from '../../lib/i18n/locales/fr';
import { translate } from '../../lib/i18n/translator';
import type { Translation } from '../../lib/i18n/types';
import type { NotificationInput } from '../../lib/notifications/notification-content';

const RESOURCES: Record<string, Translation> = { en, es, fr };

export function notificationTranslator(language: string): NotificationInput['translate'] {
  const resources = RESOURCES[language];
  const used = resources ? language : 'en';
  return (key, values) => translate(resources, used, en, 'en', key, values);
}
