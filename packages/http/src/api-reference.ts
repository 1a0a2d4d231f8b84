import { TEXT_RULE_BOUNDS } from '@frontdesk/domain';
import { html, type Html } from './template';
import type { JsonSchema } from './operation';

/**
 * The HTML API reference at /docs, rendered on the server from the host's own
 * /openapi.json: every operation with its fields, bounds and answer. No script, no
 * request to anywhere else, so it reads the same offline and under the pages' CSP.
 */
interface Schema {
  type?: string;
  enum?: unknown[];
  nullable?: boolean;
  items?: Schema;
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  maxLength?: number;
  pattern?: string;
  maxItems?: number;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  /** A value that comes in kinds (an updates event), each with its own fields. */
  oneOf?: Schema[];
  title?: string;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface OperationDoc {
  description?: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}
interface Doc {
  info?: { title?: string; description?: string; version?: string; license?: { name?: string } };
  paths?: Record<string, Record<string, OperationDoc>>;
  components?: { securitySchemes?: Record<string, { description?: string; type?: string }> };
}

/** A schema's type in words, with its bounds: "integer, 0 to 10", "one of: standard, deep". */
function typeText(s: Schema): string {
  if (!s || typeof s !== 'object') return '';
  if (Array.isArray(s.enum))
    return `one of: ${s.enum
      .filter((v) => v !== null)
      .map(String)
      .join(', ')}${s.nullable ? ', or null' : ''}`;
  const parts: string[] = [];
  const type =
    s.type === 'array' ? `list of ${typeText(s.items ?? {}) || 'values'}` : s.oneOf ? `one of ${s.oneOf.length} kinds, each below` : (s.type ?? 'any value');
  parts.push(type);
  if (s.minimum !== undefined && s.maximum !== undefined) parts.push(`${s.minimum} to ${s.maximum}`);
  else if (s.minimum !== undefined) parts.push(`at least ${s.minimum}`);
  else if (s.maximum !== undefined) parts.push(`at most ${s.maximum}`);
  if (s.multipleOf !== undefined) parts.push(`in steps of ${s.multipleOf}`);
  if (s.maxLength !== undefined) parts.push(`up to ${s.maxLength} characters`);
  if (s.pattern) parts.push(TEXT_RULE_BOUNDS[s.pattern] ?? `matching ${s.pattern}`);
  if (s.maxItems !== undefined) parts.push(`up to ${s.maxItems} items`);
  if (s.nullable) parts.push('or null');
  return parts.join(', ');
}

/** The fields of an object schema as a table; nested objects list their own fields below. */
function fieldsTable(s: Schema, depth = 0): Html {
  const props = s.properties ?? {};
  const names = Object.keys(props);
  if (names.length === 0) return html`<p>None.</p>`;
  const required = new Set<string>(s.required ?? []);
  const row = (name: string) => {
    const p = props[name]!;
    const inner = p.properties ? p : p.items?.properties ? p.items : undefined;
    return html`<tr>
      <td><code>${name}</code>${required.has(name) && ' (required)'}</td>
      <td>
        ${typeText(p)}${p.description && html`<br />${p.description}`}${depth < 2 && inner && fieldsTable(inner, depth + 1)}${
          depth < 2 &&
          p.items?.oneOf?.map(
            (kind) =>
              html`<p><code>${kind.title ?? ''}</code></p>
                ${fieldsTable(kind, depth + 1)}`,
          )
        }
      </td>
    </tr>`;
  };
  return html`<div class="fields">
    <table>
      <tr>
        <th scope="col">Field</th>
        <th scope="col">Type and meaning</th>
      </tr>
      ${names.map(row)}
    </table>
  </div>`;
}

const asFields = (params: Parameter[]): Schema => ({
  properties: Object.fromEntries(params.map((p) => [p.name, { ...p.schema, description: p.description ?? p.schema?.description }])),
  required: params.filter((p) => p.required).map((p) => p.name),
});

function operationHtml(path: string, method: string, op: OperationDoc): Html {
  const name = path.replace('/api/v1/', '');
  const query = (op.parameters ?? []).filter((p) => p.in === 'query');
  const headers = (op.parameters ?? []).filter((p) => p.in === 'header');
  const input = method === 'get' ? fieldsTable(asFields(query)) : fieldsTable(op.requestBody?.content?.['application/json']?.schema ?? {});
  const answer = op.responses?.['200']?.content?.['application/json']?.schema ?? {};
  const refusals = Object.entries(op.responses ?? {}).filter(([status]) => status !== '200');
  return html`<section id="${name}">
    <h2>${name}</h2>
    <p><code>${method.toUpperCase()} ${path}</code></p>
    <p>${op.description ?? op.summary ?? ''}</p>
    <h3>${method === 'get' ? 'Query parameters' : 'Body (JSON)'}</h3>
    ${input}
    ${
      headers.length > 0 &&
      html`<h3>Headers</h3>
        ${fieldsTable(asFields(headers))}`
    }
    <h3>Answer</h3>
    ${fieldsTable(answer)}
    ${
      refusals.length > 0 &&
      html`<h3>Refusals</h3>
        <ul>
          ${refusals.map(([status, r]) => html`<li>${status}: ${r.description ?? ''}</li>`)}
        </ul>`
    }
  </section>`;
}

export function apiReferenceHtml(doc: JsonSchema, publicUrl: string): Html {
  const d = doc as Doc;
  const ops = Object.entries(d.paths ?? {}).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
  const schemes = Object.entries(d.components?.securitySchemes ?? {});
  const short = (path: string) => path.replace('/api/v1/', '');
  return html`<p>${d.info?.description ?? ''}</p>
    <p>
      Version ${d.info?.version ?? ''}. Base URL <code>${publicUrl}/api/v1</code>; the same operations are MCP tools at <code>${publicUrl}/mcp</code>.
      Machine-readable: <a href="/openapi.json">/openapi.json</a>.
    </p>
    ${
      schemes.length > 0 &&
      html`<h2>Credentials</h2>
        <ul>
          ${schemes.map(([name, s]) => html`<li><strong>${name}</strong>: ${s.description ?? s.type ?? ''}</li>`)}
        </ul>`
    }
    <h2>Operations</h2>
    <ul>
      ${ops.map(({ path }) => html`<li><a href="#${short(path)}">${short(path)}</a></li>`)}
    </ul>
    ${ops.map(({ path, method, op }) => operationHtml(path, method, op))}
    ${
      d.info?.license?.name &&
      html`<h2 id="terms">Terms</h2>
        <p>${d.info.license.name}</p>`
    }`;
}
