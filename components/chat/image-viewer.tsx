import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode, type RefObject } from 'react';
import { attachmentUrl } from '@/lib/api/attachment-url';
import type { Attachment } from '@/lib/contract';
import { useImageViewerStore } from '@/lib/stores/image-viewer-store';
import { useThreadMessages, type ThreadMessage } from '@/lib/stores/thread-store';
import { useT } from '@/lib/i18n';
import { Modal } from '@/components/ui/modal';
import { ChevronLeftIcon, ChevronRightIcon, DownloadIcon, FitIcon, ZoomInIcon, ZoomOutIcon } from '@/components/ui/icons';
import buttons from '@/components/ui/button.module.css';
import { isViewableImage } from './image-thumb';
import styles from './image-viewer.module.css';

type Image = Attachment & { width: number; height: number };

/** Zoom steps over the fitted size: 1 shows the whole image. */
const ZOOMS = [1, 1.5, 2, 3, 4] as const;
/** A horizontal swipe this long (px), mostly sideways, steps to the next or previous image. */
const SWIPE_PX = 60;

/** The images of a conversation's messages, oldest first: what the viewer steps through. */
export function imagesOf(messages: readonly ThreadMessage[]): Image[] {
  const images: Image[] = [];
  for (const message of messages) {
    if (!message.deleted && message.attachment && isViewableImage(message.attachment)) images.push(message.attachment);
  }
  return images;
}

/** The open image's size on screen: fitted into the stage (never enlarged past its own pixels), then zoomed. */
function shownSize(image: Image, stage: { width: number; height: number } | null, zoom: number): { width: number; height: number } | null {
  if (!stage || stage.width <= 0 || stage.height <= 0) return null;
  const fit = Math.min(stage.width / image.width, stage.height / image.height, 1);
  return { width: Math.round(image.width * fit * zoom), height: Math.round(image.height * fit * zoom) };
}

/** The stage's inner size, followed as the window (or the phone's orientation) changes. */
function useStageSize(stage: RefObject<HTMLDivElement | null>): { width: number; height: number } | null {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const element = stage.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setSize({ width: element.clientWidth, height: element.clientHeight }));
    observer.observe(element);
    return () => observer.disconnect();
  }, [stage]);
  return size;
}

/**
 * The images of the open conversation, one at a time, in a modal dialog over the whole screen:
 * previous and next (buttons, arrow keys, a swipe), zoom (buttons, + and -, a double click or
 * tap; the zoomed image scrolls, or is dragged), download, and Escape or Close to go back, the
 * focus then returning to the image it was opened from. Open while the store names an image of
 * this conversation; an image that leaves the thread (unsent, deleted) closes it.
 */
export function ImageViewer({ peerId }: { peerId: number }) {
  const showing = useImageViewerStore((state) => state.showing);
  const messages = useThreadMessages(peerId);
  const images = useMemo(() => imagesOf(messages), [messages]);
  const index = showing === null ? -1 : images.findIndex((image) => image.id === showing);

  useEffect(() => {
    if (showing !== null && index === -1) useImageViewerStore.getState().close();
  }, [showing, index]);
  // Leaving the conversation closes it.
  useEffect(() => () => useImageViewerStore.getState().close(), []);

  if (index === -1) return null;
  return <ViewerDialog images={images} index={index} />;
}

function ViewerDialog({ images, index }: { images: Image[]; index: number }) {
  const t = useT();
  const keysId = useId();
  const image = images[index]!;
  const [zoomStep, setZoomStep] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const stage = useRef<HTMLDivElement>(null);
  const stageSize = useStageSize(stage);
  const zoom = ZOOMS[zoomStep]!;
  const size = shownSize(image, stageSize, zoom);
  const gesture = useRef<{ x: number; y: number; left: number; top: number; pan: boolean } | null>(null);
  const url = attachmentUrl(image.url);

  const go = (to: number) => {
    const next = images[to];
    if (!next) return;
    setZoomStep(0);
    useImageViewerStore.getState().show(next.id);
  };
  const zoomTo = (step: number) => setZoomStep(Math.max(0, Math.min(ZOOMS.length - 1, step)));

  // Zooming keeps the middle of what was shown in the middle.
  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    element.scrollLeft = (element.scrollWidth - element.clientWidth) / 2;
    element.scrollTop = (element.scrollHeight - element.clientHeight) / 2;
  }, [zoomStep, index]);

  // The neighbours are fetched ahead, so stepping shows them at once.
  useEffect(() => {
    for (const neighbour of [images[index - 1], images[index + 1]]) {
      if (neighbour) new window.Image().src = attachmentUrl(neighbour.url);
    }
  }, [images, index]);

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    // A zoomed image with the focus scrolls with the arrow keys, as any scrolling area does.
    if (zoomStep > 0 && event.target === stage.current && event.key.startsWith('Arrow')) return;
    const actions: Record<string, () => void> = {
      ArrowLeft: () => go(index - 1),
      ArrowRight: () => go(index + 1),
      Home: () => go(0),
      End: () => go(images.length - 1),
      '+': () => zoomTo(zoomStep + 1),
      '=': () => zoomTo(zoomStep + 1),
      '-': () => zoomTo(zoomStep - 1),
      '0': () => zoomTo(0),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  // A swipe steps (at the fitted size); a drag pans a zoomed image (touch pans by scrolling itself).
  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    const element = stage.current;
    if (!element || event.button !== 0) return;
    const pan = zoomStep > 0 && event.pointerType === 'mouse';
    gesture.current = { x: event.clientX, y: event.clientY, left: element.scrollLeft, top: element.scrollTop, pan };
    if (pan) element.setPointerCapture?.(event.pointerId);
  }
  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const start = gesture.current;
    const element = stage.current;
    if (!start?.pan || !element) return;
    element.scrollLeft = start.left - (event.clientX - start.x);
    element.scrollTop = start.top - (event.clientY - start.y);
  }
  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    const start = gesture.current;
    gesture.current = null;
    if (!start || start.pan || zoomStep > 0) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > 2 * Math.abs(dy)) go(dx < 0 ? index + 1 : index - 1);
  }

  const step = (to: number, label: string, icon: ReactNode, className: string) => {
    const possible = images[to] !== undefined;
    return (
      <button
        type="button"
        className={`${buttons.button} ${buttons.icon} ${styles.step} ${className}`}
        aria-label={label}
        title={label}
        // Not `disabled`: a disabled button would drop the keyboard's focus out of the dialog.
        aria-disabled={!possible}
        onClick={() => go(to)}
      >
        {icon}
      </button>
    );
  };

  return (
    <Modal
      title={image.name}
      className={styles.viewer}
      describedBy={keysId}
      onKeyDown={onKeyDown}
      onClose={() => useImageViewerStore.getState().close()}
      // The thumbnail it was opened from, if the list unmounted it meanwhile (ids are base64url: nothing to escape).
      returnFocusTo={() => document.querySelector<HTMLElement>(`[data-image-id="${image.id}"]`) ?? document.querySelector<HTMLElement>('main textarea')}
    >
      <p id={keysId} className="visually-hidden">
        {t('imageViewer.keys')}
      </p>
      <div className={styles.toolbar}>
        <span className={styles.position}>{t('imageViewer.position', { index: index + 1, count: images.length })}</span>
        <span className={styles.tools}>
          <button type="button" className={`${buttons.button} ${buttons.icon}`} aria-label={t('imageViewer.zoomOut')} title={t('imageViewer.zoomOut')} aria-disabled={zoomStep === 0} onClick={() => zoomTo(zoomStep - 1)}>
            <ZoomOutIcon />
          </button>
          <button type="button" className={`${buttons.button} ${buttons.icon}`} aria-label={t('imageViewer.zoomFit')} title={t('imageViewer.zoomFit')} aria-disabled={zoomStep === 0} onClick={() => zoomTo(0)}>
            <FitIcon />
          </button>
          <button type="button" className={`${buttons.button} ${buttons.icon}`} aria-label={t('imageViewer.zoomIn')} title={t('imageViewer.zoomIn')} aria-disabled={zoomStep === ZOOMS.length - 1} onClick={() => zoomTo(zoomStep + 1)}>
            <ZoomInIcon />
          </button>
          <span className={styles.zoom} role="status">
            {t('imageViewer.zoomLevel', { percent: Math.round(zoom * 100) })}
          </span>
          <a className={`${buttons.button} ${buttons.icon}`} href={url} download={image.name} aria-label={t('imageViewer.download', { name: image.name })} title={t('imageViewer.download', { name: image.name })}>
            <DownloadIcon />
          </a>
        </span>
      </div>
      <div className={styles.frame}>
        <div
          ref={stage}
          className={styles.stage}
          role="group"
          aria-label={t('imageViewer.stage')}
          // Zoomed, it scrolls: the keyboard must reach it too.
          tabIndex={zoomStep > 0 ? 0 : undefined}
          data-zoomed={zoomStep > 0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => (gesture.current = null)}
          onDoubleClick={() => zoomTo(zoomStep === 0 ? 2 : 0)}
        >
          {failed === image.id ? (
            <p className={styles.failed} role="alert">
              {t('imageViewer.loadFailed')}
            </p>
          ) : (
            // eslint-disable-next-line @next/next/no-img-element
            <img
              key={image.id}
              className={styles.image}
              src={url}
              alt={t('thread.imageAlt', { name: image.name })}
              width={size?.width ?? image.width}
              height={size?.height ?? image.height}
              style={size ? { width: size.width, height: size.height } : undefined}
              draggable={false}
              onError={() => setFailed(image.id)}
            />
          )}
        </div>
        {/* One image alone has nowhere to step to. */}
        {images.length > 1 ? (
          <>
            {step(index - 1, t('imageViewer.previous'), <ChevronLeftIcon />, styles.previous!)}
            {step(index + 1, t('imageViewer.next'), <ChevronRightIcon />, styles.next!)}
          </>
        ) : null}
      </div>
    </Modal>
  );
}
