// The one error message rule (docs/CLIENT-RULES.md, "HTTP"), shared by the HTTP client and by socket acks.

interface ResponseLike {
  status: number;
  statusText: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function nonEmptyText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A body that arrived as text (wrong content type) may still be JSON worth reading. */
function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** Steps 1 and 2 of the rule: non_field_errors (an array is joined with spaces), then msg. */
export function errorBodyMessage(body: unknown): string | undefined {
  const parsed = parseBody(body);
  if (!isRecord(parsed)) return undefined;
  const fieldErrors = parsed.non_field_errors;
  if (Array.isArray(fieldErrors)) {
    const joined = fieldErrors.map(nonEmptyText).filter(Boolean).join(' ');
    if (joined) return joined;
  } else {
    const text = nonEmptyText(fieldErrors);
    if (text) return text;
  }
  return nonEmptyText(parsed.msg);
}

/** The raw error (step 5): its message, or the value itself as text. */
function rawErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

function responseOf(error: unknown): ResponseLike | undefined {
  if (!isRecord(error) || !isRecord(error.response)) return undefined;
  const { status, statusText } = error.response;
  if (typeof status !== 'number') return undefined;
  return { status, statusText: typeof statusText === 'string' ? statusText : '' };
}

function hasBody(body: unknown): boolean {
  return body !== undefined && body !== null && body !== '';
}

/**
 * The rule's order. For a failed HTTP response with a body (ky's HTTPError: `response` plus the pre-parsed
 * `data`): non_field_errors, else msg, else the status text, else the status code. With no body
 * (an empty response, or no response at all: network failure, timeout) the raw error.
 */
export function errorMessage(error: unknown): string {
  const response = responseOf(error);
  const body = isRecord(error) ? error.data : undefined;
  if (!response || !hasBody(body)) return rawErrorMessage(error);
  return errorBodyMessage(body) ?? (response.statusText || String(response.status));
}
