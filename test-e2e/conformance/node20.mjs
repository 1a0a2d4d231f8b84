// The conformance CLI imports fs.globSync, which Node has from 22 on; this project runs on 20.
// On an older Node, give that one module an fs with a globSync made of readdir and path.matchesGlob.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') register('./node20-hooks.mjs', import.meta.url);
