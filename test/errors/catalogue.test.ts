/**
 * The error catalogue and docs/errors.md agree row for row; every class the catalogue names is
 * exported from mcpkit and carries its code; httpStatusFor maps codes as the HTTP engine answers.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as mcpkit from '../../src/index.js';
import { errorCatalogue, httpStatusFor, type ErrorCodeName, type ErrorEntry } from '../../src/errors/codes.js';

const DOC = fs.readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

function rpcText(entry: ErrorEntry): string {
  if (entry.rpc === null) return 'none';
  return entry.rpcModern === undefined ? String(entry.rpc) : `${entry.rpc} (${entry.rpcModern} on 2026-07-28)`;
}

/** The catalogue as the doc's table must show it. */
function expectedRows(): string[] {
  return Object.entries(errorCatalogue).map(([code, e]: [string, ErrorEntry]) =>
    `| \`${code}\` | ${rpcText(e)} | ${e.rpc === null ? '–' : httpStatusFor(code as ErrorCodeName)} | ${e.className === undefined ? '–' : `\`${e.className}\``} | ${e.when} |`,
  );
}

function docRows(): string[] {
  const lines = DOC.split('\n');
  const header = lines.findIndex((l) => l.startsWith('| code | JSON-RPC |'));
  expect(header, 'docs/errors.md has the catalogue table').toBeGreaterThan(-1);
  const rows: string[] = [];
  for (let i = header + 2; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(lines[i]!);
  return rows;
}

describe('the error catalogue', () => {
  it('is the table of docs/errors.md, row for row', () => {
    expect(docRows()).toEqual(expectedRows());
  });

  it('names classes that mcpkit exports and that carry the code', () => {
    const samples: Record<string, Error & { errorCode?: string }> = {
      McpToolNotFoundError: new mcpkit.McpToolNotFoundError('t'),
      McpPromptNotFoundError: new mcpkit.McpPromptNotFoundError('p'),
      McpPromptArgumentError: new mcpkit.McpPromptArgumentError('p', ['a']),
      McpResourceNotFoundError: new mcpkit.McpResourceNotFoundError('x://'),
      McpUriTooLongError: new mcpkit.McpUriTooLongError('x://', 1),
      ToolError: new mcpkit.ToolError('m'),
      ToolInputError: new mcpkit.ToolInputError('m'),
      ToolOutputError: new mcpkit.ToolOutputError('t', 'd'),
      MissingClientCapabilityError: new mcpkit.MissingClientCapabilityError({ sampling: {} }, 'sampling'),
      RequestTimeoutError: new mcpkit.RequestTimeoutError('tools/call', 1),
      ConnectionClosedError: new mcpkit.ConnectionClosedError('closed'),
      TaskInputTimeoutError: new mcpkit.TaskInputTimeoutError('elicitation/create', 1),
      StoreUnavailableError: new mcpkit.StoreUnavailableError('down'),
      OutputClosedError: new mcpkit.OutputClosedError('gone'),
    };
    for (const [code, entry] of Object.entries(errorCatalogue) as [ErrorCodeName, ErrorEntry][]) {
      if (entry.className === undefined) continue;
      expect(Object.keys(mcpkit), `${entry.className} is exported`).toContain(entry.className);
      const sample = samples[entry.className];
      expect(sample, `a sample of ${entry.className}`).toBeDefined();
      expect(sample!.errorCode).toBe(code);
      if (entry.rpc !== null && 'code' in sample!) expect((sample as { code: unknown }).code).toBe(entry.rpc);
    }
  });

  it('httpStatusFor: 404 for an unknown method, 400 for a bad request, 503 for a store that is down, else 200', () => {
    expect(httpStatusFor(-32601)).toBe(404);
    expect([-32700, -32600, -32602, -32020, -32021, -32022].map((c) => httpStatusFor(c))).toEqual([400, 400, 400, 400, 400, 400]);
    expect(httpStatusFor(-32603)).toBe(200);
    expect(httpStatusFor('tool_not_found')).toBe(400);
    expect(httpStatusFor('resource_not_found')).toBe(400);
    expect(httpStatusFor('store_unavailable')).toBe(503);
  });
});
