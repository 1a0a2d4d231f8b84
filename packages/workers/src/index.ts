export * from './mail-transport';
export * from './ticker';
export * from './workers';
export * from './webhook-sender';
export * from './webhooks';
export * from './feed-reader';
