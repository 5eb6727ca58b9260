// Spanish (español). Plurals: _one, _many (1.000.000 y más: «de»), _other.
// In the same parts as English (en.ts), each imported only here, so all of Spanish stays one chunk.
import type { Translation } from '../types';
import { esSignIn } from './es-sign-in';
import { esMain } from './es-main';
import { esThread } from './es-thread';
import { esSettings } from './es-settings';

export const es: Translation = {
  ...esSignIn,
  ...esMain,
  ...esThread,
  ...esSettings,
  errors: {
    network: 'No se puede conectar con Parley. Comprueba tu conexión.',
    session: 'Tu sesión ha terminado. Vuelve a iniciar sesión.',
    forbidden: 'Esta cuenta no puede hacer eso.',
    notFound: 'Eso ya no está aquí.',
    tooLarge: 'Es demasiado grande para enviarlo.',
    rateLimited: 'Demasiado a la vez. Espera un momento y vuelve a intentarlo.',
    server: 'Parley tiene problemas ahora mismo. Vuelve a intentarlo en un momento.',
    recipientGone: 'No puedes enviar mensajes a esta persona.',
    attachmentGone: 'El archivo adjunto ya no está disponible.',
    invalid: 'Parley no ha podido aceptarlo.',
    unknown: 'Algo ha salido mal. Vuelve a intentarlo.',
  },
  languages: {
    en: 'English',
    es: 'Español',
    fr: 'Français',
  },
};
