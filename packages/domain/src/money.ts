/** Money is integer cents everywhere; USD numbers with two decimals only at the edge. */
export type Cents = number;

export function toUsd(cents: Cents): number {
  return Math.round(cents) / 100;
}

export function fromUsd(usd: number): Cents {
  return Math.round(usd * 100);
}

// What toLocaleString('en-US') formats with, made once: making it was most of a quote's summary.
const DOLLARS = new Intl.NumberFormat('en-US');

export function formatUsd(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const whole = Math.floor(abs / 100);
  // Below a thousand there is no separator: the digits as they are.
  const dollars = whole < 1000 ? String(whole) : DOLLARS.format(whole);
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** Scales cents by an integer percentage, rounding half up to the cent. */
export function percentOf(cents: Cents, pct: number): Cents {
  return Math.round((cents * pct) / 100);
}
