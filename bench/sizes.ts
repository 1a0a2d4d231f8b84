import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createBusiness } from '@frontdesk/use-cases';
import { MODEL_BUDGETS, modelFacingTools, utf8Bytes } from '@frontdesk/http';
import type { Db } from '@frontdesk/db';

/**
 * What a model pays for on each turn, from the running hosts: the model-facing part of each
 * tools/list (name, title, description, input schema) and open-times answers for a business
 * open 9 hours a day (08:00-17:00, Monday to Saturday) on the default 30-minute step, asked
 * about its shortest job (the most starts). Tokens are counted with gpt-tokenizer's o200k_base
 * encoding (GPT-4o and later); other models' tokenizers differ, so bytes are the budget and
 * tokens the trend to watch.
 */
export const TOKEN_ENCODING = 'o200k_base (gpt-tokenizer)';

export interface SizeRow {
  what: string;
  bytes: number;
  tokens: number;
  /** The byte budget, where the issue sets one. */
  target: number | null;
}

const NINE_HOURS = Object.fromEntries(['1', '2', '3', '4', '5', '6'].map((d) => [d, [{ start: '08:00', end: '17:00' }]]));

export async function measureSizes(db: Db, hosts: { pro: string; book: string }, publicKey: string): Promise<SizeRow[]> {
  const { pro, apiKey } = await createBusiness(db, {
    name: 'Nine Hours Cleaning',
    timezone: 'America/New_York',
    service_zips: ['10001'],
    weekly_hours: NINE_HOURS,
  });
  const asPro = { authorization: `Bearer ${apiKey}` };
  const asPublic = { authorization: `Bearer ${publicKey}` };
  const row = (what: string, text: string, target: number | null): SizeRow => ({ what, bytes: utf8Bytes(text), tokens: countTokens(text), target });
  const tools = async (base: string, headers: Record<string, string>) => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    if (!res.ok) throw new Error(`tools/list on ${base}: ${res.status}`);
    return modelFacingTools(((await res.json()) as { result: { tools: Parameters<typeof modelFacingTools>[0] } }).result.tools);
  };
  const answer = async (url: string, headers: Record<string, string>) => {
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    return res.text();
  };
  const job = 'bedrooms=0&bathrooms=1';
  return [
    row('tools/list pro, model-facing', await tools(hosts.pro, asPro), MODEL_BUDGETS.proTools),
    row('tools/list book, model-facing', await tools(hosts.book, asPublic), MODEL_BUDGETS.bookTools),
    row('open_times 7 days', await answer(`${hosts.pro}/api/v1/open_times?${job}&days=7`, asPro), MODEL_BUDGETS.openTimesWeek),
    row('open_times 21 days', await answer(`${hosts.pro}/api/v1/open_times?${job}&days=21`, asPro), null),
    row(
      'available_times 7 days',
      await answer(`${hosts.book}/api/v1/available_times?cleaner_id=${pro.id}&${job}&days=7`, asPublic),
      MODEL_BUDGETS.openTimesWeek,
    ),
  ];
}

/** The rows as a table beside their targets. */
export function sizesTable(rows: SizeRow[]): string {
  return [
    `Sizes a model pays for (tokens: ${TOKEN_ENCODING}); a 9-hour day on a 30-minute step, the shortest job:`,
    '',
    '| what | bytes | tokens | target bytes | |',
    '|---|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.what} | ${r.bytes} | ${r.tokens} | ${r.target ?? '-'} | ${r.target === null ? '' : r.bytes <= r.target ? 'met' : 'MISSED'} |`),
    '',
  ].join('\n');
}
