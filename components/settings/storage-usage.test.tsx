import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadUsage } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { StorageUsage } from './storage-usage';

const api = vi.hoisted(() => ({ fetchUploadUsage: vi.fn<() => Promise<UploadUsage>>() }));
vi.mock('@/lib/api/accounts', () => ({ fetchUploadUsage: api.fetchUploadUsage }));

// Decimal units, as the rest of the app counts them.
const MB = 1_000_000;
const GB = 1_000_000_000;

describe('StorageUsage', () => {
  beforeEach(async () => {
    api.fetchUploadUsage.mockReset();
    await initI18n('en');
  });
  afterEach(cleanup);

  it('shows what the uploads take against the quota, with a meter', async () => {
    api.fetchUploadUsage.mockResolvedValue({ used_bytes: 30_400_000, quota_bytes: 2 * GB });
    render(<StorageUsage />);
    // 30.4 MB read "29 MB" when counted in 1024s.
    expect(await screen.findByText('30.4 MB of 2 GB used')).toBeTruthy();
    const meter = screen.getByRole('meter', { name: 'Storage' });
    expect([meter.getAttribute('value'), meter.getAttribute('max')]).toEqual([String(30_400_000), String(2 * GB)]);
  });

  it('speaks the user’s language', async () => {
    await initI18n('fr');
    api.fetchUploadUsage.mockResolvedValue({ used_bytes: 3 * MB, quota_bytes: 2 * GB });
    render(<StorageUsage />);
    // Intl puts a (narrow) no-break space between number and unit.
    expect(await screen.findByText(/^3\sMo utilisés sur 2\sGo$/)).toBeTruthy();
  });

  it('says so when there is no quota, or when the figure cannot be read', async () => {
    api.fetchUploadUsage.mockResolvedValueOnce({ used_bytes: 1_500, quota_bytes: null });
    render(<StorageUsage />);
    expect(await screen.findByText('1.5 kB used')).toBeTruthy();
    expect(screen.queryByRole('meter')).toBeNull();
    cleanup();
    api.fetchUploadUsage.mockRejectedValueOnce(new Error('offline'));
    render(<StorageUsage />);
    expect(await screen.findByText('Storage use unavailable.')).toBeTruthy();
  });
});
