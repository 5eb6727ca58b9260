// Set up before every client unit test file: stores start from their initial state each test,
// and all of English is there from the start, as it is in the main area once its chunk is in.
import { vi } from 'vitest';
import { provideTexts } from '@/lib/i18n/i18n';
import { en } from '@/lib/i18n/locales/en';

vi.mock('zustand', () => import('./zustand'));
provideTexts('en', en);
