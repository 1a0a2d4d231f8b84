export * from './app';
export * from './config';
export * from './context';
export * from './mcp';
export * from './operations';
