// The result schema for each method that may answer `input_required`.
import { CallToolResultSchema, GetPromptResultSchema, ReadResourceResultSchema } from '@modelcontextprotocol/core';
import type { CallMethod } from '../../../shared/elicitation/types';

/** Result schema by method. */
export const RESULT_SCHEMAS = {
  'tools/call': CallToolResultSchema,
  'prompts/get': GetPromptResultSchema,
  'resources/read': ReadResourceResultSchema,
} as const satisfies Record<CallMethod, unknown>;
