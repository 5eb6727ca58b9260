// Blocks, muting, reports and the account's own data (docs/API.md, "Safety" and "Your data").
import type { BlockedUser, BlockResult, MuteResult, Page, ReportCreated, ReportRequest } from '@/lib/contract';
import { api } from './client';

export function blockUser(id: number): Promise<BlockResult> {
  return api.put(`users/${id}/block`).json<BlockResult>();
}

export function unblockUser(id: number): Promise<BlockResult> {
  return api.delete(`users/${id}/block`).json<BlockResult>();
}

export function listBlocks(): Promise<Page<BlockedUser>> {
  return api.get('blocks').json<Page<BlockedUser>>();
}

export function setConversationMuted(peerId: number, muted: boolean): Promise<MuteResult> {
  return api.patch(`conversations/${peerId}`, { json: { muted } }).json<MuteResult>();
}

export function fileReport(report: ReportRequest): Promise<ReportCreated> {
  return api.post('reports', { json: report }).json<ReportCreated>();
}

export interface DownloadedFile {
  blob: Blob;
  name: string;
}

/** GET accounts/export, whole: the server streams it; the browser then saves it as a file. */
export async function downloadAccountData(): Promise<DownloadedFile> {
  // No timeout and no retry: a long history takes a while, and the export has a strict rate limit.
  const response = await api.get('accounts/export', { timeout: false, retry: 0 });
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'parley-data.json';
  return { blob: await response.blob(), name };
}

/** Deletes the signed-in account for good (204); its session ends with it. */
export async function deleteAccount(): Promise<void> {
  await api.delete('accounts/me', { retry: 0 });
}
