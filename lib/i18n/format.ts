// Numbers the translations interpolate already formatted for the language.

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
/** Decimal steps (kB = 1,000 bytes), as phones' and Macs' file managers count and as the upload limit is set. */
const STEP = 1000;

export interface FileSizeOptions {
  /** Round up rather than to the nearest: a file over a limit never reads as the limit itself. */
  roundUp?: boolean;
}

/**
 * A file size in the reader's language, in decimal units: 50000000 → "50 MB" (en), "50 Mo" (fr);
 * 52500000 → "52.5 MB"; 32 → "32 bytes". One decimal below 100 of a unit, none above.
 */
export function formatFileSize(bytes: number, language: string, { roundUp = false }: FileSizeOptions = {}): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= STEP && unit < UNITS.length - 1) {
    value /= STEP;
    unit += 1;
  }
  const fractionDigits = unit > 0 && value < 100 ? 1 : 0;
  if (roundUp) {
    const scale = 10 ** fractionDigits;
    value = Math.ceil(value * scale - 1e-9) / scale;
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: UNITS[unit],
    // "32 bytes", "32 octets": the long form has the plural; kB, MB… are short everywhere.
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: fractionDigits,
  }).format(value);
}
