import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { MAX_ZOOM, centred, cropOf, placed, scaleOf, zoomed, type Framing } from '@/lib/profile/avatar-crop';
import { decodeImage, renderAvatar, type DecodedImage } from '@/lib/profile/avatar-image';
import { removePhoto, savePhoto } from '@/lib/profile/profile';
import { useCurrentUser } from '@/lib/stores/session-store';
import { useT } from '@/lib/i18n';
import { Avatar } from '@/components/ui/avatar';
import buttons from '@/components/ui/button.module.css';
import modal from '@/components/ui/modal.module.css';
import styles from './avatar-editor.module.css';

/** The frame's side on screen, in CSS pixels. */
const FRAME = 240;
/** How far an arrow key moves the picture, in screen pixels (Shift: ten times more). */
const STEP = 4;

type State =
  | { step: 'idle'; message: string | null }
  | { step: 'framing'; image: DecodedImage; framing: Framing }
  | { step: 'saving'; image: DecodedImage; framing: Framing; progress: number }
  | { step: 'removing' };

/**
 * The user's photo: choose a picture, frame the square to keep (drag or arrow keys to move, the
 * slider to zoom), save. The browser cuts and shrinks it (lib/profile/avatar-image.ts) before
 * the upload; everyone sees the new photo at once.
 */
export function AvatarEditor({ name }: { name: string }) {
  const t = useT();
  const id = useId();
  const user = useCurrentUser();
  const [state, setState] = useState<State>({ step: 'idle', message: null });
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const drag = useRef<{ pointer: number; startX: number; startY: number; from: Framing } | null>(null);
  const abort = useRef<AbortController | null>(null);
  const image = state.step === 'framing' || state.step === 'saving' ? state.image : null;

  // The picture's object URL lives as long as it is being framed or saved, and no longer.
  useEffect(() => () => image?.release(), [image]);
  useEffect(() => () => abort.current?.abort(), []);

  async function pick(file: File | undefined) {
    if (!file) return;
    setError(null);
    try {
      const decoded = await decodeImage(file);
      setState({ step: 'framing', image: decoded, framing: centred(decoded.width, decoded.height, FRAME) });
    } catch {
      setError(t('profile.photoUnreadable'));
    }
  }

  function reframe(update: (framing: Framing) => Framing) {
    setState((current) => (current.step === 'framing' ? { ...current, framing: update(current.framing) } : current));
  }

  async function save() {
    if (state.step !== 'framing') return;
    const { image: picture, framing } = state;
    setError(null);
    setState({ step: 'saving', image: picture, framing, progress: 0 });
    const controller = new AbortController();
    abort.current = controller;
    let result;
    try {
      const photo = await renderAvatar(picture.element, cropOf(framing));
      result = await savePhoto(photo, {
        signal: controller.signal,
        onProgress: (progress) => setState((current) => (current.step === 'saving' ? { ...current, progress } : current)),
      });
    } catch {
      result = { ok: false as const, error: t('profile.photoUnreadable') };
    }
    if (controller.signal.aborted) return;
    if (result.ok) return setState({ step: 'idle', message: t('profile.photoSaved') });
    setState({ step: 'framing', image: picture, framing });
    if ('error' in result) setError(t('profile.photoFailed', { message: result.error }));
  }

  async function remove() {
    setError(null);
    setState({ step: 'removing' });
    const result = await removePhoto();
    setState({ step: 'idle', message: result.ok ? t('profile.photoRemoved') : null });
    if (!result.ok && 'error' in result) setError(t('profile.photoFailed', { message: result.error }));
  }

  function onKeyDown(event: KeyboardEvent) {
    const step = event.shiftKey ? STEP * 10 : STEP;
    const moves: Record<string, [number, number]> = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      reframe((framing) => placed(framing, framing.x + move[0], framing.y + move[1]));
    } else if (event.key === '+' || event.key === '=' || event.key === '-') {
      event.preventDefault();
      reframe((framing) => zoomed(framing, framing.zoom + (event.key === '-' ? -0.25 : 0.25)));
    }
  }

  function onPointerDown(event: PointerEvent) {
    if (state.step !== 'framing') return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointer: event.pointerId, startX: event.clientX, startY: event.clientY, from: state.framing };
  }

  function onPointerMove(event: PointerEvent) {
    const start = drag.current;
    if (!start || start.pointer !== event.pointerId) return;
    reframe(() => placed(start.from, start.from.x + event.clientX - start.startX, start.from.y + event.clientY - start.startY));
  }

  const framing = state.step === 'framing' || state.step === 'saving' ? state.framing : null;
  const busy = state.step === 'saving' || state.step === 'removing';

  return (
    <div className={styles.editor}>
      <input
        ref={fileInput}
        type="file"
        accept="image/png,image/jpeg,image/webp,image/gif"
        className="visually-hidden"
        tabIndex={-1}
        aria-label={t('profile.choosePhoto')}
        onChange={(event) => {
          void pick(event.target.files?.[0]);
          // Emptied, so the same file chosen again still fires a change.
          event.target.value = '';
        }}
      />
      {image && framing ? (
        <div className={styles.framing}>
          <div
            className={styles.frame}
            style={{ width: FRAME, height: FRAME }}
            role="group"
            tabIndex={0}
            aria-label={t('profile.photoFrame')}
            aria-describedby={`${id}-frame-hint`}
            onKeyDown={onKeyDown}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={() => (drag.current = null)}
            onPointerCancel={() => (drag.current = null)}
          >
            {/* eslint-disable-next-line @next/next/no-img-element -- a local object URL, drawn as it is */}
            <img
              className={styles.picture}
              src={image.url}
              alt=""
              draggable={false}
              style={{
                width: image.width * scaleOf(framing),
                height: image.height * scaleOf(framing),
                transform: `translate(${framing.x}px, ${framing.y}px)`,
              }}
            />
            <span className={styles.mask} aria-hidden="true" />
          </div>
          <p id={`${id}-frame-hint`} className={styles.hint}>
            {t('profile.photoFrameHint')}
          </p>
          <label className={styles.zoom}>
            <span>{t('profile.zoom')}</span>
            <input
              type="range"
              min={1}
              max={MAX_ZOOM}
              step={0.01}
              value={framing.zoom}
              disabled={busy}
              onChange={(event) => reframe((current) => zoomed(current, Number(event.target.value)))}
            />
          </label>
          <div className={styles.actions}>
            <button
              type="button"
              className={buttons.button}
              onClick={() => {
                abort.current?.abort();
                setState({ step: 'idle', message: null });
              }}
            >
              {t('common.cancel')}
            </button>
            <button type="button" className={`${buttons.button} ${buttons.primary}`} disabled={busy} aria-busy={busy} onClick={() => void save()}>
              {t('profile.savePhoto')}
            </button>
          </div>
        </div>
      ) : (
        <div className={styles.current}>
          <Avatar name={name} src={user?.avatar ?? null} size={96} />
          <div className={styles.actions}>
            <button type="button" className={buttons.button} disabled={busy} onClick={() => fileInput.current?.click()}>
              {user?.avatar ? t('profile.changePhoto') : t('profile.addPhoto')}
            </button>
            {user?.avatar ? (
              <button type="button" className={buttons.button} disabled={busy} aria-busy={state.step === 'removing'} onClick={() => void remove()}>
                {t('profile.removePhoto')}
              </button>
            ) : null}
          </div>
        </div>
      )}
      <p className={modal.status} role="status">
        {state.step === 'saving' ? t('profile.photoUploading', { percent: Math.round(state.progress * 100) }) : null}
        {state.step === 'idle' ? state.message : null}
      </p>
      <p className={modal.error} role="alert">
        {error}
      </p>
    </div>
  );
}
