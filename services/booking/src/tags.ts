/** The host's areas in /openapi.json, one per operations file. */
export const BOOKING_TAGS = [
  { name: 'cleaners', description: 'Cleaners serving a ZIP code, their firm prices and open start times.' },
  {
    name: 'bookings',
    description: 'Book a cleaning, and check, move or cancel it later with its manage token.',
  },
  { name: 'rentals', description: "A short-term rental host's calendars become turnover cleans by one cleaner." },
] as const;
