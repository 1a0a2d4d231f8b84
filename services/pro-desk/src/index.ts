export * from './app';
export * from './auth';
export * from './config';
export * from './context';
export * from './operations';
export * from './mcp';
