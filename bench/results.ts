// What a bench run writes to bench/results/<timestamp>.json (bench/main.ts) and bench/table.ts
// reads back: every section's figures, and the table printed from them.
import type { ConnectionsResult } from './connections';
import type { TargetRun } from './delivery';
import type { FloodResult } from './flood';
import type { FrontendResult } from './frontend/index';
import type { BenchOptions } from './options';
import type { ProfileSummary } from './profile';
import type { SearchResult } from './search';

/** One line of the printed table: a figure, its target and whether it was met. */
export interface Row {
  section: string;
  metric: string;
  value: string;
  target: string;
  verdict: 'met' | 'MISSED' | 'n/a' | '';
}

export interface BenchResults {
  startedAt: string;
  finishedAt?: string;
  environment: Record<string, unknown>;
  options: BenchOptions;
  floor?: TargetRun;
  delivery?: TargetRun;
  connections?: ConnectionsResult;
  flood?: FloodResult;
  frontend?: FrontendResult;
  search?: SearchResult;
  profile?: ProfileSummary;
  errors: { section: string; message: string }[];
  table?: Row[];
}
