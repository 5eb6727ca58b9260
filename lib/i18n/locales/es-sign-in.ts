// Spanish for the sign-in screen. A part of es.ts, in its chunk: unlike English's, it is not
// bundled with the sign-in page, which loads all of Spanish before showing it.
import type { enSignIn } from './en-sign-in';
import type { TranslationOf } from '../types';

export const esSignIn: TranslationOf<typeof enSignIn> = {
  common: {
    appName: 'Parley',
    loading: 'Cargando…',
    retry: 'Reintentar',
    cancel: 'Cancelar',
    close: 'Cerrar',
    back: 'Atrás',
    save: 'Guardar',
    errorGeneric: 'Algo salió mal. Inténtalo de nuevo.',
    you: 'Tú',
    unknownUser: 'Usuario desconocido',
  },
  account: {
    signInTitle: 'Inicia sesión en Parley',
    loading: 'Cargando Parley',
    title: 'Te damos la bienvenida a Parley',
    tagline: 'Encuentra personas, síguelas y conversa en tiempo real.',
    signInHeading: 'Iniciar sesión',
    continueWithGoogle: 'Continuar con Google',
    continueWithGithub: 'Continuar con GitHub',
    signingIn: 'Iniciando sesión…',
  },
  signInErrors: {
    popupClosed: 'La ventana de inicio de sesión se cerró antes de terminar.',
    popupBlocked: 'El navegador bloqueó la ventana de inicio de sesión. Permite las ventanas emergentes para este sitio e inténtalo de nuevo.',
    popupInterrupted: 'Otra ventana de inicio de sesión sustituyó a esta. Inténtalo de nuevo, con una sola ventana.',
    network: 'No se pudo contactar con el servicio de inicio de sesión. Comprueba tu conexión e inténtalo de nuevo.',
    accountExists: 'Ya hay una cuenta con este correo que inicia sesión de otra forma. Usa el botón con el que te registraste.',
    tooManyRequests: 'Demasiados intentos de inicio de sesión. Espera unos minutos y vuelve a intentarlo.',
    serviceTrouble: 'El servicio de inicio de sesión tuvo un problema. Inténtalo de nuevo en un momento.',
    providerDisabled: 'Esta forma de iniciar sesión está desactivada por ahora. Prueba con el otro botón.',
    userDisabled: 'El proveedor ha desactivado esta cuenta de inicio de sesión.',
    unavailable: 'No se puede iniciar sesión en esta ventana del navegador. Abre Parley en una pestaña normal e inténtalo de nuevo.',
    unauthorizedDomain: 'El inicio de sesión no está configurado para esta dirección. Abre Parley desde su dirección habitual.',
    storageBlocked: 'El navegador bloquea el almacenamiento que necesita el inicio de sesión. Permite las cookies y los datos de este sitio e inténtalo de nuevo.',
    deactivated: 'Esta cuenta ha sido desactivada.',
    generic: 'No se pudo iniciar sesión. Inténtalo de nuevo.',
  },
};
