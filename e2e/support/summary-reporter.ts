// Printed after Playwright's own summary: why each skipped test was skipped (a run against a
// deployment skips the specs it cannot serve, and says so), and which tests were flaky (failed,
// then passed on a retry), with what failed and where the retry's trace is. Flaky is never a pass:
// on CI the run fails on it (playwright.config.ts, failOnFlakyTests; docs/TESTING.md).
import path from 'node:path';
import type { Reporter, Suite, TestCase } from '@playwright/test/reporter';

class SummaryReporter implements Reporter {
  private root: Suite | undefined;

  onBegin(_config: unknown, suite: Suite) {
    this.root = suite;
  }

  onEnd() {
    const tests = this.root?.allTests() ?? [];
    const lines: string[] = [];

    const reasons = new Map<string, string[]>();
    for (const test of tests.filter((each) => each.outcome() === 'skipped')) {
      const reason = skipReason(test);
      reasons.set(reason, [...(reasons.get(reason) ?? []), title(test)]);
    }
    for (const [reason, titles] of reasons) {
      lines.push(`  Skipped ${titles.length}: ${reason}`, ...titles.map((each) => `    ${each}`));
    }

    for (const test of tests.filter((each) => each.outcome() === 'flaky')) {
      const failed = test.results.find((result) => result.status !== 'passed' && result.status !== 'skipped');
      // Traces are recorded from the first retry on (playwright.config.ts).
      const trace = test.results.flatMap((result) => result.attachments).find((attachment) => attachment.name === 'trace')?.path;
      // A timeout comes with a second error, the step that was waiting: a few lines of each.
      const errors = failed?.errors.length ? failed.errors : [{ message: 'no error message' }];
      const message = errors.flatMap((error) =>
        stripColours(error.message ?? '').split('\n').filter((line) => line.trim() !== '').slice(0, 4),
      );
      lines.push(
        `  FLAKY (failed, then passed on retry ${test.results.length - 1}): ${title(test)}`,
        ...message.map((line) => `    ${line}`),
        ...(trace ? [`    trace of the retry: npx playwright show-trace ${path.relative(process.cwd(), trace)}`] : []),
      );
    }
    if (lines.length > 0) console.log(`\n${lines.join('\n')}`);
  }

  printsToStdio() {
    return false;
  }
}

function skipReason(test: TestCase): string {
  const annotations = [...(test.results.at(-1)?.annotations ?? []), ...test.annotations];
  return annotations.find((annotation) => annotation.type === 'skip')?.description || 'no reason given';
}

function stripColours(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

function title(test: TestCase): string {
  return test.titlePath().filter(Boolean).join(' › ');
}

export default SummaryReporter;
