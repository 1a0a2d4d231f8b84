export interface RateLimitsTable {
  key: Buffer;
  hits: number;
  resets_at: Date;
}
