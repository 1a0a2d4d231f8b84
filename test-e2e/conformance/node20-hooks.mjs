import { URL } from 'node:url';

/** Module hook: the conformance CLI's `fs` is node20-fs.mjs; every other module's is Node's own. */
export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/dist/')) {
    return { url: new URL('./node20-fs.mjs', import.meta.url).href, shortCircuit: true };
  }
  return next(specifier, context);
}
