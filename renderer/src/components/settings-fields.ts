/**
 * The watchdog and delivery fields of the Settings page (issue 17), and the inline check of a
 * number field. Each number field's bounds are read from its zod schema in shared/config.ts
 * (issue 23: never restated), so the inline message names the bounds the daemon enforces.
 */
import type { z } from 'zod';
import { AgentConfigSchema, ResponseDeliverySchema, SilenceWatchdogSchema } from '../../../shared/config.js';
import type { CopyKey } from '../i18n/copy.js';

export type Section = 'silenceWatchdog' | 'responseDelivery';
export const SECTIONS: readonly Section[] = ['silenceWatchdog', 'responseDelivery'];
const SECTION_SCHEMAS = { silenceWatchdog: SilenceWatchdogSchema, responseDelivery: ResponseDeliverySchema };

export interface NumberRule {
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  /** `min` itself is not allowed (a threshold of 0 s would beacon at once). */
  readonly exclusiveMin: boolean;
}
export type Field =
  | { readonly kind: 'bool'; readonly key: string; readonly label: CopyKey }
  | { readonly kind: 'number'; readonly key: string; readonly label: CopyKey; readonly rule: NumberRule };

/**
 * A number field's rule, from its schema (zod 4's `minValue`, `maxValue`, `isInt`): a `min` the
 * schema itself refuses is exclusive (`.positive()`).
 */
export function numberRule(schema: z.ZodDefault<z.ZodNumber>): NumberRule {
  const n = schema.unwrap();
  const min = n.minValue ?? Number.NEGATIVE_INFINITY;
  return {
    min,
    max: n.maxValue ?? Number.POSITIVE_INFINITY,
    integer: n.isInt,
    exclusiveMin: !n.safeParse(min).success,
  };
}

const watchdog = SilenceWatchdogSchema.shape;
const delivery = ResponseDeliverySchema.shape;
export const FIELDS: Readonly<Record<Section, readonly Field[]>> = {
  silenceWatchdog: [
    { kind: 'bool', key: 'enabled', label: 'settings.watchdog.enabled' },
    {
      kind: 'number',
      key: 'thresholdSeconds',
      label: 'settings.watchdog.thresholdSeconds',
      rule: numberRule(watchdog.thresholdSeconds),
    },
    { kind: 'number', key: 'maxBeacons', label: 'settings.watchdog.maxBeacons', rule: numberRule(watchdog.maxBeacons) },
  ],
  responseDelivery: [
    { kind: 'bool', key: 'enabled', label: 'settings.delivery.enabled' },
    { kind: 'number', key: 'retryCount', label: 'settings.delivery.retryCount', rule: numberRule(delivery.retryCount) },
    {
      kind: 'number',
      key: 'retryDelayMs',
      label: 'settings.delivery.retryDelayMs',
      rule: numberRule(delivery.retryDelayMs),
    },
    { kind: 'bool', key: 'alertOnFailure', label: 'settings.delivery.alertOnFailure' },
    { kind: 'bool', key: 'alertOnNoResponse', label: 'settings.delivery.alertOnNoResponse' },
    { kind: 'bool', key: 'preserveUndelivered', label: 'settings.delivery.preserveUndelivered' },
  ],
};

export type NumberProblem = { readonly key: CopyKey; readonly vars?: Record<string, number> };

/** The copy key of what is wrong with a number field's text, or null when it is valid. */
export function numberProblem(text: string, section: Section, key: string, rule: NumberRule): NumberProblem | null {
  const trimmed = text.trim();
  const n = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(n)) return { key: 'settings.invalid.number' };
  if (rule.integer && !Number.isInteger(n)) return { key: 'settings.invalid.integer' };
  const below = rule.exclusiveMin ? n <= rule.min : n < rule.min;
  const range = rule.exclusiveMin ? 'settings.invalid.positive' : 'settings.invalid.range';
  if (below || n > rule.max) return { key: range, vars: { min: rule.min, max: rule.max } };
  // The schema is the final judge (a rule it has beyond bounds).
  const schema = SECTION_SCHEMAS[section].shape[key as keyof (typeof SECTION_SCHEMAS)[typeof section]['shape']];
  if (schema !== undefined && !schema.safeParse(n).success)
    return { key: range, vars: { min: rule.min, max: rule.max } };
  return null;
}

/**
 * issue 26: what is wrong with an agent's base branch as typed (empty: none, the branch checked
 * out in its folder), judged by the config's own schema, or null when it is valid.
 */
export function baseBranchProblem(text: string): CopyKey | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return AgentConfigSchema.shape.baseBranch.safeParse(trimmed).success ? null : 'agentSettings.baseBranchInvalid';
}
