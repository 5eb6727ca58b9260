// The signed-in user's own name and photo: saved on the server (PATCH accounts/profile), then
// published, so the header shows them at once. Other tabs and the people who talk with the user
// hear of it by `user_updated` (session-events.ts).
import { updateProfile } from '@/lib/api/accounts';
import { isUploadCancelled, uploadFile } from '@/lib/api/uploads';
import { userMessage } from '@/lib/api/user-message';
import { MAX_DISPLAY_NAME_LENGTH, type ProfileRequest } from '@/lib/contract';
import { cleanDisplayName } from '@/lib/contract/display-text';
import { useSessionStore } from '@/lib/stores/session-store';

export type ProfileResult = { ok: true } | { ok: false; error: string } | { ok: false; cancelled: true };

/** The name as the server will store it, or why it would refuse it (the rules of displayNameSchema). */
export function checkDisplayName(typed: string): { ok: true; name: string } | { ok: false; problem: 'empty' | 'tooLong' } {
  // A form field holds no control characters but a pasted line break, which becomes a space.
  const name = cleanDisplayName(typed);
  if (name === '') return { ok: false, problem: 'empty' };
  if (name.length > MAX_DISPLAY_NAME_LENGTH) return { ok: false, problem: 'tooLong' };
  return { ok: true, name };
}

async function save(change: ProfileRequest): Promise<ProfileResult> {
  try {
    useSessionStore.getState().publishUser(await updateProfile(change));
    return { ok: true };
  } catch (error) {
    return { ok: false, error: userMessage(error) };
  }
}

export function saveDisplayName(name: string): Promise<ProfileResult> {
  return save({ username: name });
}

export interface PhotoOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** Uploads the photo the editor made (lib/profile/avatar-image.ts), then makes it the user's. */
export async function savePhoto(photo: File, { onProgress, signal }: PhotoOptions = {}): Promise<ProfileResult> {
  let uploadId: string;
  try {
    uploadId = (await uploadFile(photo, { onProgress, signal })).id;
  } catch (error) {
    if (isUploadCancelled(error)) return { ok: false, cancelled: true };
    return { ok: false, error: userMessage(error) };
  }
  return save({ avatar_upload_id: uploadId });
}

/** No photo: initials stand in (components/ui/avatar.tsx), here and at later sign-ins. */
export function removePhoto(): Promise<ProfileResult> {
  return save({ avatar_upload_id: null });
}
