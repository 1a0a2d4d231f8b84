/** The job description shared by quote_job, open_times, book_job and leads. */
export const CLEAN_TYPES = ['standard', 'deep', 'move_out', 'turnover'] as const;
export type CleanType = (typeof CLEAN_TYPES)[number];

export const FREQUENCIES = ['once', 'weekly', 'biweekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export interface Job {
  bedrooms: number;
  bathrooms: number;
  clean_type: CleanType;
  sqft: number | null;
  frequency: Frequency;
  add_ons: string[];
  pets: boolean;
}

export interface JobInput {
  bedrooms: number;
  bathrooms: number;
  clean_type?: CleanType;
  sqft?: number | null;
  frequency?: Frequency;
  add_ons?: string[] | null;
  pets?: boolean;
}

/** Fills the contract's defaults and normalizes add-on names (trimmed, lower case, once each). */
export function normalizeJob(input: JobInput): Job {
  const addOns = (input.add_ons ?? []).map((a) => a.trim().toLowerCase()).filter((a) => a.length > 0);
  return {
    bedrooms: input.bedrooms,
    bathrooms: input.bathrooms,
    clean_type: input.clean_type ?? 'standard',
    sqft: input.sqft ?? null,
    frequency: input.frequency ?? 'once',
    add_ons: [...new Set(addOns)],
    pets: input.pets ?? false,
  };
}

export const CLEAN_TYPE_LABELS: Record<CleanType, string> = {
  standard: 'Standard clean',
  deep: 'Deep clean',
  move_out: 'Move-out / move-in clean',
  turnover: 'Turnover clean',
};

export const FREQUENCY_LABELS: Record<Frequency, string> = {
  once: 'One-time',
  weekly: 'Weekly',
  biweekly: 'Every two weeks',
  monthly: 'Monthly',
};
