/** issue 23: the Settings form's bounds are the zod schemas' of shared/config.ts, read, never restated. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ResponseDeliverySchema, SilenceWatchdogSchema } from '../../../../shared/config.js';
import { FIELDS, SECTIONS, numberProblem, numberRule } from '../../../../renderer/src/components/settings-fields.js';

const SCHEMAS = { silenceWatchdog: SilenceWatchdogSchema, responseDelivery: ResponseDeliverySchema } as const;

describe('Settings fields', () => {
  it('bound every number field exactly where its schema does (min, max, whole numbers, an exclusive 0)', () => {
    let numbers = 0;
    for (const section of SECTIONS)
      for (const f of FIELDS[section]) {
        const schema = SCHEMAS[section].shape[f.key as keyof (typeof SCHEMAS)[typeof section]['shape']];
        expect(schema, `${section}.${f.key}`).toBeDefined();
        if (f.kind === 'bool') {
          expect(schema.safeParse(true).success, f.key).toBe(true);
          continue;
        }
        numbers += 1;
        const { min, max, integer, exclusiveMin } = f.rule;
        const at = `${section}.${f.key}`;
        expect(schema.safeParse(max).success, `${at} max`).toBe(true);
        expect(schema.safeParse(max + 0.5).success, `${at} above max`).toBe(false);
        expect(schema.safeParse(min).success, `${at} min`).toBe(!exclusiveMin);
        expect(schema.safeParse(min - 1).success, `${at} below min`).toBe(false);
        expect(schema.safeParse(min + 1.5).success, `${at} a fraction`).toBe(!integer);
      }
    expect(numbers).toBe(4);
  });

  it('are the watchdog spec bounds (thresholdSeconds above 0 up to a day; whole counts)', () => {
    const rules = Object.fromEntries(
      SECTIONS.flatMap((s) => FIELDS[s].flatMap((f) => (f.kind === 'number' ? [[f.key, f.rule]] : []))),
    );
    expect(rules).toEqual({
      thresholdSeconds: { min: 0, max: 86_400, integer: false, exclusiveMin: true },
      maxBeacons: { min: 0, max: 100, integer: true, exclusiveMin: false },
      retryCount: { min: 0, max: 10, integer: true, exclusiveMin: false },
      retryDelayMs: { min: 0, max: 600_000, integer: true, exclusiveMin: false },
    });
  });

  it('reads a rule from any number schema, so a changed schema changes the form', () => {
    expect(numberRule(z.number().int().min(2).max(7).default(3))).toEqual({
      min: 2,
      max: 7,
      integer: true,
      exclusiveMin: false,
    });
    expect(numberRule(z.number().gt(1).lte(9.5).default(2))).toEqual({
      min: 1,
      max: 9.5,
      integer: false,
      exclusiveMin: true,
    });
  });

  it("names what is wrong with a number's text, with the schema's bounds", () => {
    const rule = numberRule(SilenceWatchdogSchema.shape.thresholdSeconds);
    expect(numberProblem('', 'silenceWatchdog', 'thresholdSeconds', rule)).toEqual({ key: 'settings.invalid.number' });
    expect(numberProblem('0', 'silenceWatchdog', 'thresholdSeconds', rule)).toEqual({
      key: 'settings.invalid.positive',
      vars: { min: 0, max: 86_400 },
    });
    expect(numberProblem('0.5', 'silenceWatchdog', 'thresholdSeconds', rule)).toBeNull();
    const beacons = numberRule(SilenceWatchdogSchema.shape.maxBeacons);
    expect(numberProblem('1.5', 'silenceWatchdog', 'maxBeacons', beacons)).toEqual({ key: 'settings.invalid.integer' });
    expect(numberProblem('101', 'silenceWatchdog', 'maxBeacons', beacons)).toEqual({
      key: 'settings.invalid.range',
      vars: { min: 0, max: 100 },
    });
  });
});
