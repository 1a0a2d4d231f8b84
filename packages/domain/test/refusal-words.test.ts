import {
  EVENT_KINDS,
  EVENT_KIND_NAMES,
  InvalidInputError,
  noWebhook,
  webhookInOwnerWords,
  webhookUrlNotHttps,
  webhookUrlTaken,
  jobNotOffered,
  lacksScopeMessage,
  notAPhone,
  oauthWords,
  startOutsideHours,
  startTooSoon,
  timeOffTooLong,
  usualSqftFalls,
  windowsOverlap,
  zipsNotFiveDigits,
} from '../src';

/** The refusals whose words have logic of their own: plurals, optional parts, lists, caps. */

describe('the refusal of a job not offered', () => {
  it('names a missing clean type with the types offered', () => {
    const err = jobNotOffered({ cleanType: { asked: 'turnover', offered: ['standard', 'deep'] } });
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.message).toBe('This business does not offer the clean type "turnover"; clean types offered: standard, deep.');
  });

  it('says add-on or add-ons as their number asks, and "none" when none is offered', () => {
    expect(jobNotOffered({ addOns: { missing: ['garage'], offered: ['oven'] } }).message).toBe(
      'This business does not offer the add-on "garage"; add-ons offered: oven.',
    );
    expect(jobNotOffered({ addOns: { missing: ['garage', 'pool'], offered: [] } }).message).toBe(
      'This business does not offer the add-ons "garage", "pool"; add-ons offered: none.',
    );
  });

  it('says both in one refusal when both are missing', () => {
    const err = jobNotOffered({ cleanType: { asked: 'turnover', offered: ['standard'] }, addOns: { missing: ['pool'], offered: [] } });
    expect(err.message).toBe(
      'This business does not offer the clean type "turnover"; clean types offered: standard. This business does not offer the add-on "pool"; add-ons offered: none.',
    );
  });
});

describe('why a start is not open', () => {
  it('writes whole hours of notice as such and others to a tenth', () => {
    expect(startTooSoon('Mon, 9:00 AM', 24)).toBe("Mon, 9:00 AM is too soon: this business needs 24 hours' notice.");
    expect(startTooSoon('Mon, 9:00 AM', 1.5)).toBe("Mon, 9:00 AM is too soon: this business needs 1.5 hours' notice.");
  });

  it('lists every working window of the day', () => {
    const windows = [
      { start: '08:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ];
    expect(startOutsideHours('Mon, 4:00 PM', 120, windows, 'America/New_York')).toBe(
      'Mon, 4:00 PM is outside working hours: a 120-minute job must start and end within 08:00-12:00, 13:00-17:00 (America/New_York).',
    );
  });
});

describe('settings refusals', () => {
  it('names at most ten bad ZIPs', () => {
    const bad = Array.from({ length: 12 }, (_, i) => `z${i}`);
    expect(zipsNotFiveDigits('service_zips', bad).message).toBe('service_zips must be exactly 5 digits each; not: z0, z1, z2, z3, z4, z5, z6, z7, z8, z9.');
  });

  it('names the two windows that overlap and the sizes that fall', () => {
    expect(windowsOverlap('working_hours.monday', { start: '08:00', end: '12:00' }, { start: '11:00', end: '15:00' }).message).toBe(
      'working_hours.monday: "08:00-12:00" and "11:00-15:00" overlap; give windows that do not.',
    );
    expect(usualSqftFalls(3, 1400, 1500).message).toBe(
      'prices.larger_home_surcharge.usual_sqft_by_bedrooms must never fall: 3 bedrooms (1400) is below 2 (1500).',
    );
  });

  it('writes a field refusal once for every field that shares it', () => {
    expect(notAPhone('customer_phone', '12').message).toBe('customer_phone "12" is not a phone number (digits, spaces, + ( ) - allowed; at least 7 digits).');
    expect(notAPhone('phone', '12').message).toBe('phone "12" is not a phone number (digits, spaces, + ( ) - allowed; at least 7 digits).');
  });

  it('says the time-off limit the rule passes', () => {
    expect(timeOffTooLong(366).message).toBe('Time off can be at most a year (366 days) long; split a longer break.');
  });
});

describe('words of other packages, as strings', () => {
  it('joins scopes and resources, and names a fetch error by its code when there is one', () => {
    expect(oauthWords.scopesAre(['read', 'write'])).toBe('Scopes are read and write.');
    expect(oauthWords.resourcesAre(['https://a.example', 'https://a.example/mcp'])).toBe(
      'Tokens are issued only for https://a.example or https://a.example/mcp.',
    );
    expect(oauthWords.documentNotFetched('ECONNREFUSED')).toBe("The client's metadata document could not be fetched (ECONNREFUSED).");
    expect(oauthWords.documentNotFetched(undefined)).toBe("The client's metadata document could not be fetched (error).");
  });

  it('names the scope and the operation a sign-in lacks', () => {
    expect(lacksScopeMessage('write', 'book_job')).toBe('This sign-in lacks the "write" scope needed for book_job; connect again and allow it.');
  });
});

describe('webhook refusals on the dashboard', () => {
  it('says the operations’ sentences that name an operation or the business in the owner’s words, and leaves field sentences to the form’s labels', () => {
    expect(webhookInOwnerWords(noWebhook('wh_x').message)).toBe('That webhook is not in your business (it may have been removed, or the link is mistyped).');
    expect(webhookInOwnerWords(webhookUrlTaken().message)).toBe('Your business already sends to that address.');
    expect(webhookInOwnerWords(webhookUrlNotHttps().message)).toBe(webhookUrlNotHttps().message);
  });

  it('names every kind of event in words, none the same', () => {
    const names = EVENT_KINDS.map((k) => EVENT_KIND_NAMES[k]);
    expect(names.filter((n) => !/^[A-Z][a-z', -]+$/.test(n))).toEqual([]);
    expect(new Set(names).size).toBe(EVENT_KINDS.length);
  });
});
