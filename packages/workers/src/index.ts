export * from './mail-transport';
export * from './ticker';
export * from './workers';
