// The composer's attachment: picked, checked, uploaded with progress, then sent with a message.
// An upload that is not sent (removed, replaced, or left behind when the conversation or the page
// closes) is deleted from the server at once, so it stops counting against the user's storage.
import { useCallback, useEffect, useRef, useState } from 'react';
import { checkUploadSize, deleteUpload, isUploadCancelled, uploadFile } from '@/lib/api/uploads';
import { userMessage } from '@/lib/api/user-message';
import type { Attachment } from '@/lib/contract';

type AttachmentState =
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
  /** Checks the size, then uploads; replaces (and cancels, or deletes) whatever was attached before. */
  pick: (file: File) => void;
  /** Aborts the upload in progress. */
  cancel: () => void;
  /** Uploads the same file again after a failure or cancel. */
  retry: () => void;
  /** The person takes the file off: an upload in progress is aborted, a stored one deleted. */
  remove: () => void;
  /** The message took the file: forgotten here, kept on the server. */
  sent: () => void;
}

const none: AttachmentState = { status: 'none' };

export function useAttachment(): AttachmentControls {
  const [state, setState] = useState<AttachmentState>(none);
  const controller = useRef<AbortController | null>(null);
  // The stored upload not sent yet: what to delete if it is never sent.
  const stored = useRef<string | null>(null);

  const abort = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
  }, []);

  const discard = useCallback(() => {
    abort();
    const id = stored.current;
    stored.current = null;
    // A deletion that fails (offline) leaves it to the server's sweep of unsent uploads, a day later.
    if (id !== null) deleteUpload(id).catch(() => undefined);
  }, [abort]);

  // Leaving the thread stops an upload nobody will send, and deletes one nobody sent. So does
  // closing the page (the deletion is a keepalive request); a page kept in the back/forward cache
  // comes back without the file rather than with one that is gone.
  useEffect(() => {
    const onPageHide = () => {
      if (stored.current === null) return;
      discard();
      setState(none);
    };
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      discard();
    };
  }, [discard]);

  const start = useCallback(
    (file: File) => {
      discard();
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
          stored.current = attachment.id;
          setState({ status: 'ready', file, attachment });
        },
        (error: unknown) => {
          // A cancel that came from pick/remove already moved on; only an explicit cancel is shown.
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
    [discard],
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

  const remove = useCallback(() => {
    discard();
    setState(none);
  }, [discard]);

  const sent = useCallback(() => {
    abort();
    stored.current = null;
    setState(none);
  }, [abort]);

  return { state, attachment: state.status === 'ready' ? state.attachment : null, pick: start, cancel, retry, remove, sent };
}
