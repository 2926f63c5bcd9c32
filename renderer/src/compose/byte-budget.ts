/**
 * The composer's byte counter (issue 17): messages are limited in UTF-8 bytes
 * (shared/config.ts `limits.maxMessageBytes`; the daemon refuses more). The limit is the daemon's,
 * from `limits.get` (issue 23), the schema's default until it is known. The counter shows from
 * 75 % of the limit, and sending is blocked above it.
 */
import { DEFAULT_LIMITS } from '../../../shared/api/contract.js';

const SHOW_FROM = 0.75;

export interface ByteBudget {
  readonly bytes: number;
  readonly show: boolean;
  readonly over: boolean;
  /** KB with one decimal, e.g. "24.6". */
  readonly usedKb: string;
  readonly limitKb: string;
}

const encoder = new TextEncoder();

export function byteBudget(text: string, limit = DEFAULT_LIMITS.maxMessageBytes): ByteBudget {
  const bytes = encoder.encode(text).length;
  const kb = (n: number) => (Math.floor((n / 1024) * 10) / 10).toFixed(n % 1024 === 0 ? 0 : 1);
  return {
    bytes,
    show: bytes >= limit * SHOW_FROM,
    over: bytes > limit,
    usedKb: kb(bytes),
    limitKb: kb(limit),
  };
}
