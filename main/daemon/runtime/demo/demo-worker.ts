/**
 * issue 30: the demo agents' own thread. Every demo agent of the process runs here, off the
 * daemon's event loop, as a real CLI runs in its own process: each is a DemoRuntime talking to
 * the daemon's MCP server over HTTP with its own token; the host side (demo-thread.ts) relays its
 * events, its deliveries, and its calls into the host (turn boundary, approvals, log lines).
 */
import { parentPort } from 'node:worker_threads';
import type { DaemonLog } from '../../daemon-log.js';
import type { ApprovalAnswer, ApprovalAsk } from '../approval-port.js';
import { DemoRuntime } from './demo-runtime.js';
import type { FromDemoWorker, ReplyValue, ToDemoWorker } from './demo-thread-protocol.js';

const port = parentPort;
if (port === null) throw new Error('demo-worker.ts runs in a worker thread only');

const agents = new Map<number, DemoRuntime>();
/** The worker's own requests to the host, by call number. */
const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let calls = 0;

const post = (message: FromDemoWorker) => port.postMessage(message);

function askHost(agent: number, type: 'boundary'): Promise<string | null>;
function askHost(agent: number, type: 'approval', ask: ApprovalAsk): Promise<ApprovalAnswer>;
function askHost(agent: number, type: 'boundary' | 'approval', ask?: ApprovalAsk): Promise<unknown> {
  const call = ++calls;
  return new Promise((resolve, reject) => {
    waiting.set(call, { resolve, reject });
    post(type === 'boundary' ? { type, agent, call } : { type, agent, call, ask: ask as ApprovalAsk });
  });
}

function logOf(agent: number, debugEnabled: boolean): DaemonLog {
  const line = (level: 'info' | 'warn' | 'error' | 'debug') => (message: string, fields?: Record<string, unknown>) =>
    post({ type: 'log', agent, level, message, ...(fields === undefined ? {} : { fields }) });
  return { debugEnabled, info: line('info'), warn: line('warn'), error: line('error'), debug: line('debug') };
}

async function handle(message: ToDemoWorker): Promise<ReplyValue> {
  const { agent } = message;
  switch (message.type) {
    case 'start': {
      const demo = new DemoRuntime({
        ...message.spec,
        host: {
          onTurnBoundary: () => askHost(agent, 'boundary'),
          requestApproval: (ask) => askHost(agent, 'approval', ask),
        },
        log: logOf(agent, message.spec.debug),
      });
      agents.set(agent, demo);
      // The generation is the host's to stamp (one per thread-hosted runtime).
      demo.events$.subscribe(({ generation: _generation, ...event }) => post({ type: 'event', agent, event }));
      return demo.start();
    }
    case 'deliver':
      return (
        (await agents.get(agent)?.deliver(message.text)) ?? {
          ok: false,
          code: 'not_running',
          message: 'The demo runtime is not running; the delivery was not written.',
        }
      );
    case 'interrupt':
      await agents.get(agent)?.interrupt();
      return null;
    case 'stop':
      await agents.get(agent)?.stop();
      agents.delete(agent);
      return null;
    case 'answer': {
      const w = waiting.get(message.call);
      waiting.delete(message.call);
      if ('error' in message) w?.reject(new Error(message.error));
      else w?.resolve(message.value);
      return null;
    }
  }
}

port.on('message', (message: ToDemoWorker) => {
  const replied = handle(message);
  if (message.type === 'answer') return;
  replied.then(
    (value) => post({ type: 'reply', agent: message.agent, call: message.call, value }),
    (err: unknown) =>
      post({
        type: 'reply',
        agent: message.agent,
        call: message.call,
        error: err instanceof Error ? err.message : String(err),
      }),
  );
});
