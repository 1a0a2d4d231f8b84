export * from './errors';
export * from './money';
export * from './job';
export * from './price-list';
export * from './pricing';
export * from './time';
export * from './availability';
