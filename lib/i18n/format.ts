// Numbers the translations interpolate already formatted for the language.

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/**
 * A file size in the reader's language: 52428800 → "50 MB" (en), "50 Mo" (fr). Binary steps, as
 * the 50 MB upload limit is 50 × 1024 × 1024 bytes.
 */
export function formatFileSize(bytes: number, language: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const fractionDigits = unit > 0 && value < 10 ? 1 : 0;
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: fractionDigits,
  }).format(value);
}
