/**
 * The arguments of the agentteam MCP tools (mcp-server.ts): zod schemas, from which the published
 * JSON Schemas are generated and every refusal is worded.
 *
 * issue 30 "the hot path lean": `message_send` — one per wake — is checked by the same schema
 * compiled to a JSON Schema validator (ajv, through the MCP SDK's own `AjvJsonSchemaValidator`:
 * no dependency of ours) and zod runs only for arguments the compiled check refuses, to word the
 * refusal. `npm run bench -- validation`: zod ~0.4 µs, compiled ~0.06 µs per call. Both accept
 * exactly the same JSON (test/unit/main/daemon/mcp/tool-input.test.ts): strings and an optional
 * boolean, no length bounds (the content limit is checked in bytes by the server).
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';

export const MessageSendInput = z.object({
  target: z
    .string()
    .describe(
      'Exact target of the conversation to post in: "#channel", "#channel:shortid" (thread), "dm:@member" or "dm:@member:shortid". Use the exact target of the input you are answering.',
    ),
  content: z.string().describe('The message participants will see (Markdown).'),
  allow_cross_target: z
    .boolean()
    .optional()
    .describe('Set true only to post on purpose in a conversation you did not receive input from in this turn.'),
});

export const ReactionInput = z.object({
  message_id: z.string().describe('Id of the message to react to.'),
  emoji: z.string().describe('One emoji, e.g. "👍".'),
});

export type MessageSendArgs = z.infer<typeof MessageSendInput>;

/** The compiled check of `message_send`'s arguments, from its published JSON Schema. */
export function compileMessageSendCheck(jsonSchema: Record<string, unknown>): (raw: unknown) => raw is MessageSendArgs {
  const validate = new AjvJsonSchemaValidator().getValidator<MessageSendArgs>(jsonSchema);
  return (raw: unknown): raw is MessageSendArgs => validate(raw).valid;
}
