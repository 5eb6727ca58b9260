// What the moderation command prints. Everything a user wrote (names, details, message text) goes
// through visible(): a report is attacker-chosen text printed on an operator's terminal, where an
// ESC sequence could clear the screen, set the window title, forge a "status: resolved" line or
// hide text. Control and format characters are shown as escapes instead.
import type { ReportTarget, ReportView } from '../db/reports';

// C0, DEL and C1 controls (ESC, CSI U+009B, …), Unicode format characters (bidi overrides and
// isolates, zero-width characters, the BOM, tags), line and paragraph separators, and the backslash
// itself, so that a printed "\u{1b}" can only have come from an escaped character.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\\]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

/** `text` with every character that could act on a terminal shown as an escape. */
export function visible(text: string): string {
  return text.replace(UNSAFE, (char) => NAMED[char] ?? `\\u{${char.codePointAt(0)!.toString(16)}}`);
}

const describe = (id: number, name: string | null) => `${name === null ? '(no name)' : visible(name)} [user ${id}]`;

export function summary(report: ReportView): string {
  const target = report.messageId !== null ? `message ${report.messageId} from` : 'person';
  const status = report.resolvedAt ? ` (resolved ${report.resolvedAt.toISOString()})` : '';
  const filings = report.filings > 1 ? `  ×${report.filings}, last ${report.lastFiledAt.toISOString()}` : '';
  return `#${report.id}  ${report.createdAt.toISOString()}  ${visible(report.reason)}  ${target} ${describe(report.reportedUserId, report.reportedName)}  by ${describe(report.reporterId, report.reporterName)}${filings}${status}`;
}

export function targetSummary(target: ReportTarget): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${describe(target.userId, target.name)}${target.active ? '' : ' (inactive)'}  ${plural(target.reports, 'report')}, ${plural(target.filings, 'filing')}, last ${target.lastFiledAt.toISOString()}`;
}

export function details(report: ReportView): string[] {
  return [
    `Report #${report.id}`,
    `  filed:     ${report.createdAt.toISOString()} by ${describe(report.reporterId, report.reporterName)}`,
    ...(report.filings > 1 ? [`  filings:   ${report.filings}, the last ${report.lastFiledAt.toISOString()}`] : []),
    `  reported:  ${describe(report.reportedUserId, report.reportedName)}${report.reportedActive ? '' : ' (inactive)'}`,
    `  reason:    ${visible(report.reason)}`,
    `  details:   ${report.details === null ? '(none)' : visible(report.details)}`,
    ...(report.messageText !== null ? [`  message:   ${report.messageId ?? '(since deleted)'}`, `  text:      "${visible(report.messageText).replace(/"/g, '\\"')}"`] : []),
    `  status:    ${report.resolvedAt ? `resolved ${report.resolvedAt.toISOString()}` : 'open'}`,
  ];
}

/** The line under a page: where it is, and how to get the next one. */
export function pageFooter(page: number, perPage: number, total: number, noun: string, next: string): string | null {
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (pages === 1) return null;
  return `Page ${page} of ${pages} (${total} ${noun})${page < pages ? `: ${next} --page ${page + 1} for the next` : ''}.`;
}
