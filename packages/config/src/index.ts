export * from './env';
export * from './values';
export * from './database';
export * from './rate-limits';
export * from './keys';
export * from './mail';
export * from './host';
export * from './local';
