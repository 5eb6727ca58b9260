// The composer's attachment: picked, checked, uploaded with progress, then sent with a message.
import { useCallback, useEffect, useRef, useState } from 'react';
import { checkUploadSize, isUploadCancelled, uploadFile } from '@/lib/api/uploads';
import { userMessage } from '@/lib/api/user-message';
import type { Attachment } from '@/lib/contract';

export type AttachmentState =
  | { status: 'none' }
  /** Refused before any request: over the size limit. */
  | { status: 'too_large'; file: File; max: number }
  /** `progress` from 0 to 1. */
  | { status: 'uploading'; file: File; progress: number }
  | { status: 'ready'; file: File; attachment: Attachment }
  | { status: 'cancelled'; file: File }
  /** `error` is a sentence for the reader (the technical message is in the console). */
  | { status: 'failed'; file: File; error: string };

export interface AttachmentControls {
  state: AttachmentState;
  /** The uploaded file, when there is one to send. */
  attachment: Attachment | null;
  /** Checks the size, then uploads; replaces (and cancels) whatever was attached before. */
  pick: (file: File) => void;
  /** Aborts the upload in progress. */
  cancel: () => void;
  /** Uploads the same file again after a failure or cancel. */
  retry: () => void;
  /** Forgets the file (aborting an upload in progress); after sending too. */
  clear: () => void;
}

const none: AttachmentState = { status: 'none' };

export function useAttachment(): AttachmentControls {
  const [state, setState] = useState<AttachmentState>(none);
  const controller = useRef<AbortController | null>(null);

  const abort = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
  }, []);

  // Leaving the thread (or the page) stops an upload nobody will send.
  useEffect(() => abort, [abort]);

  const start = useCallback(
    (file: File) => {
      abort();
      const tooLarge = checkUploadSize(file);
      if (tooLarge) {
        setState({ status: 'too_large', file, max: tooLarge.max });
        return;
      }
      const current = new AbortController();
      controller.current = current;
      setState({ status: 'uploading', file, progress: 0 });
      const mine = () => controller.current === current;
      uploadFile(file, {
        signal: current.signal,
        onProgress: (progress) => {
          if (mine()) setState({ status: 'uploading', file, progress });
        },
      }).then(
        (attachment) => {
          if (!mine()) return;
          controller.current = null;
          setState({ status: 'ready', file, attachment });
        },
        (error: unknown) => {
          // A cancel that came from pick/clear already moved on; only an explicit cancel is shown.
          if (isUploadCancelled(error)) {
            if (current.signal.reason === 'cancel') setState({ status: 'cancelled', file });
            return;
          }
          if (!mine()) return;
          controller.current = null;
          setState({ status: 'failed', file, error: userMessage(error) });
        },
      );
    },
    [abort],
  );

  const cancel = useCallback(() => {
    const current = controller.current;
    if (!current) return;
    controller.current = null;
    current.abort('cancel');
  }, []);

  const retry = useCallback(() => {
    if (state.status === 'failed' || state.status === 'cancelled') start(state.file);
  }, [state, start]);

  const clear = useCallback(() => {
    abort();
    setState(none);
  }, [abort]);

  return { state, attachment: state.status === 'ready' ? state.attachment : null, pick: start, cancel, retry, clear };
}
