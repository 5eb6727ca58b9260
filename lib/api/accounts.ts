// Account endpoints: authorize and info (docs/CLIENT-RULES.md), plus our logout, deactivate and settings.
import type { AccountInfo, AuthorizeRequest, AuthorizeResponse, ProfileRequest, SettingsRequest, UploadUsage, User } from '@/lib/contract';
import { api } from './client';

export function authorize(body: AuthorizeRequest): Promise<AuthorizeResponse> {
  return api.post('accounts/authorize', { json: body }).json<AuthorizeResponse>();
}

export function fetchAccountInfo(): Promise<AccountInfo> {
  return api.get('accounts/info').json<AccountInfo>();
}

/** Revokes the server session behind the stored token (204). */
export async function logout(): Promise<void> {
  await api.post('accounts/logout');
}

/** Saves the user's settings (the UI language) and returns the updated user. */
export function updateSettings(settings: SettingsRequest): Promise<User> {
  return api.patch('accounts/settings', { json: settings }).json<User>();
}

/** Sets the user's display name and/or photo (an upload of theirs; null removes it); returns the updated user. */
export function updateProfile(profile: ProfileRequest): Promise<User> {
  return api.patch('accounts/profile', { json: profile }).json<User>();
}

/** Bytes the user's uploads take, against their quota (null: none). */
export function fetchUploadUsage(): Promise<UploadUsage> {
  return api.get('uploads/usage').json<UploadUsage>();
}
