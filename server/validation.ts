import type { z } from 'zod';

/** zod issues as "<field>: <message>" lines (SPEC §8 non_field_errors); whole-payload problems have no field. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${key}: Unknown field.`);
    const field = issue.path.map(String).join('.');
    return [field ? `${field}: ${issue.message}` : issue.message];
  });
}
