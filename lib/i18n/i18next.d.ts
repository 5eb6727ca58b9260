// Types t() and useTranslation() against the English resources: an unknown key is a type error.
import 'i18next';
import type { Messages } from './types';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Messages };
  }
}
