// A tiny upstream server whose tool list changes: `add_tool` registers a new
// tool, and the SDK tells connected clients (list_changed on a 2026-07-28
// subscription, or the plain 2025 notification). Serves both eras on stdio.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

let added = 0;
serveStdio(() => {
  const server = new McpServer(
    { name: 'changing-fixture', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.registerTool(
    'add_tool',
    { description: 'Adds a tool named extra_<n>.', inputSchema: z.object({}) },
    async () => {
      const name = `extra_${++added}`;
      server.registerTool(name, { description: 'An added tool.' }, async () => ({
        content: [{ type: 'text', text: `${name} ran` }],
      }));
      return { content: [{ type: 'text', text: `added ${name}` }] };
    },
  );
  return server;
});
