// Web Push registration of this browser (docs/API.md, "Web Push").
import type { PushPublicKey, PushSubscriptionRequest } from '@/lib/contract';
import { api } from './client';

/** The server's VAPID public key; null when it sends no Web Push. */
export async function fetchPushPublicKey(): Promise<string | null> {
  return (await api.get('push/public-key').json<PushPublicKey>()).public_key;
}

export async function registerPushSubscription(subscription: PushSubscriptionRequest): Promise<void> {
  await api.post('push/subscriptions', { json: subscription });
}

export async function removePushSubscription(endpoint: string): Promise<void> {
  await api.delete('push/subscriptions', { json: { endpoint } });
}
