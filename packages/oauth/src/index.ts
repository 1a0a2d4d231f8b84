export * from './errors';
export * from './grants';
export * from './keys';
export * from './router';
export * from './shared';
export * from './sealing';
export * from './config';
export * from './client-metadata';
