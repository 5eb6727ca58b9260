// Set up before every client unit test file: stores start from their initial state each test.
import { vi } from 'vitest';

vi.mock('zustand', () => import('./zustand'));
