import { publicConfig } from '@/lib/config/public';

/**
 * The server gives attachment URLs relative to its own root (/api/uploads/…). On one origin that
 * is the page's; in a split deployment (NEXT_PUBLIC_API_URL absolute) it is the API's.
 */
export function attachmentUrl(url: string, apiUrl: string = publicConfig.apiUrl): string {
  if (!url.startsWith('/') || !/^https?:\/\//i.test(apiUrl)) return url;
  return new URL(url, apiUrl).href;
}
