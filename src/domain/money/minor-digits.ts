/*
 * The minor-unit digits of currencies, in a file of its own that imports nothing: the engine reads
 * it (amounts are integers of the minor unit), and so do the screens (app/src/format.ts), so a
 * figure's decimal point is put where the service puts it, whatever the browser's own tables say.
 */

/**
 * Minor-unit digits of ISO 4217 currencies that do not have two (every other currency has two):
 * amounts are integers of the minor unit, so a rate between currencies of different digits moves
 * the decimal point too.
 */
const MINOR_DIGITS: Readonly<Record<string, number>> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
  CLF: 4, UYW: 4,
}; // prettier-ignore

/** The currency's minor-unit digits (ISO 4217): 2 unless listed. */
export function minorDigits(currency: string): number {
  return MINOR_DIGITS[currency] ?? 2;
}

/** Every currency whose digits are not 2, with its digits (for SQL that needs the same table). */
export function nonDecimalCurrencies(): [currency: string, digits: number][] {
  return Object.entries(MINOR_DIGITS);
}
