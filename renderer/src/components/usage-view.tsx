/**
 * issue 27: the Usage view — per agent, its tokens per UTC day over the last 7 days as a stacked
 * bar chart (input / cached / output, recharts, coloured from the theme's CSS variables) with the
 * same numbers as a table (the accessible alternative, and the cost where the runtime reports
 * one), then the provider's limit windows and the daily budget. It reads the usage store
 * (state/usage-store.ts), which refetches on each `usage.updated`, so it is live.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AgentIdentity } from '../state/agent-store.js';
import { useState } from 'react';
import type { Budget, UsageSummary, WakeUsage } from '../../../shared/usage.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';
import { agentDays, agentLimits, lastDays, sumDays, useUsage, type UsageStore } from '../state/usage-store.js';
import { budgetText, formatCost, formatCount, limitWindowText, usageLine } from './usage-words.js';
import './usage-view.css';

export interface UsageViewProps {
  readonly usage: UsageStore;
  readonly agents: readonly AgentIdentity[];
  readonly language: Language;
  /**
   * The operator's Raise budget (`agents.raiseBudget`, written into agentteam.json; the wakes waiting
   * on the budget are released), or with `null` Remove budget (issue 39: the key leaves the file);
   * resolves with the refusal's message, or null. Absent: no editor.
   */
  readonly raiseBudget?: (agentId: string, budget: Budget | null) => Promise<string | null>;
}

/** The token kinds, bottom of the stack first, each with its theme colour. */
const KINDS = [
  { key: 'inputTokens', label: 'usage.kind.input', color: 'var(--usage-input)' },
  { key: 'cachedTokens', label: 'usage.kind.cached', color: 'var(--usage-cached)' },
  { key: 'outputTokens', label: 'usage.kind.output', color: 'var(--usage-output)' },
] as const satisfies ReadonlyArray<{ key: string; label: CopyKey; color: string }>;

export function UsageView({ usage, agents, language, raiseBudget }: UsageViewProps) {
  const { summary, error } = useUsage(usage);
  const t = (key: CopyKey, vars?: Record<string, string | number>) => copy(language, key, vars);
  return (
    <section className="page usage-view" aria-labelledby="usage-title">
      <h1 id="usage-title">{t('usage.title')}</h1>
      <p className="usage-intro">{t('usage.intro')}</p>
      {summary === null && error === null && <p>{t('usage.loading')}</p>}
      {error !== null && (
        <p className="usage-error" role="alert">
          {t('usage.failed', { message: error })}
        </p>
      )}
      {summary !== null && agents.length === 0 && <p>{t('usage.none')}</p>}
      {summary !== null &&
        agents.map((agent) => (
          <AgentUsage
            key={agent.id}
            agent={agent}
            summary={summary}
            language={language}
            {...(raiseBudget === undefined ? {} : { raiseBudget })}
          />
        ))}
    </section>
  );
}

function AgentUsage({
  agent,
  summary,
  language,
  raiseBudget,
}: {
  readonly agent: AgentIdentity;
  readonly summary: UsageSummary;
  readonly language: Language;
  readonly raiseBudget?: UsageViewProps['raiseBudget'];
}) {
  const t = (key: CopyKey, vars?: Record<string, string | number>) => copy(language, key, vars);
  const days = agentDays(summary, agent.id, lastDays(summary.today, 7));
  const total = sumDays(days);
  const limits = agentLimits(summary, agent.id);
  const budget = summary.budgets.find((b) => b.agentId === agent.id);
  const id = `usage-${agent.id}`;
  const reported = days.some((d) => d.turns > 0);
  return (
    <section className="usage-agent" aria-labelledby={id} data-agent={agent.id}>
      <h2 id={id}>{agent.name}</h2>
      <ul className="usage-limits">
        {limits.map((w) => (
          <li
            key={w.window}
            className="usage-window"
            data-window={w.window}
            data-warn={w.usedPercent !== null && w.usedPercent >= 80 ? 'true' : undefined}
          >
            {limitWindowText(w, language)}
          </li>
        ))}
        {budget !== undefined && (
          <li
            className="usage-budget"
            data-reached={budget.state.reached ? 'true' : undefined}
            data-has-budget={budget.budget === null ? 'false' : 'true'}
          >
            {budgetText(budget.budget, budget.state, language)}
          </li>
        )}
      </ul>
      {budget !== undefined && raiseBudget !== undefined && (
        // issue 40 item 9: an agent with no budget gets Set budget (the same form, no Remove).
        <RaiseBudget agent={agent} budget={budget.budget} language={language} raise={raiseBudget} />
      )}
      {!reported && <p className="usage-none-yet">{t('usage.noneYet')}</p>}
      {reported && (
        <>
          <div className="usage-chart" role="img" aria-label={t('usage.chartLabel', { agent: agent.name })}>
            <ResponsiveContainer width="100%" height={200}>
              <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
                <CartesianGrid stroke="var(--line)" vertical={false} />
                <XAxis
                  dataKey="day"
                  tickFormatter={(day: string) => day.slice(5)}
                  stroke="var(--fg-soft)"
                  tick={{ fill: 'var(--fg-soft)', fontSize: 12 }}
                />
                <YAxis
                  width={56}
                  stroke="var(--fg-soft)"
                  tick={{ fill: 'var(--fg-soft)', fontSize: 12 }}
                  tickFormatter={(n: number) => new Intl.NumberFormat(undefined, { notation: 'compact' }).format(n)}
                />
                <Tooltip
                  contentStyle={{ background: 'var(--bg)', borderColor: 'var(--line)', color: 'var(--fg)' }}
                  // The kinds' names in the text colour: a bar's fill is no text colour (axe color-contrast).
                  itemStyle={{ color: 'var(--fg)' }}
                  // The hovered day's band in the theme's line colour (recharts' default #ccc glares in dark).
                  cursor={{ fill: 'var(--line)', fillOpacity: 0.5 }}
                  formatter={(value) => formatCount(Number(value), language)}
                />
                {KINDS.map((k) => (
                  <Bar
                    key={k.key}
                    dataKey={k.key}
                    name={t(k.label)}
                    stackId="tokens"
                    fill={k.color}
                    isAnimationActive={false}
                  />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
          <ul className="usage-legend" aria-hidden="true">
            {KINDS.map((k) => (
              <li key={k.key}>
                <span className="usage-swatch" style={{ background: k.color }} />
                {t(k.label)}
              </li>
            ))}
          </ul>
        </>
      )}
      {/* Days of zeros say nothing the line above does not: the table is there once there is usage. A
          region that may scroll sideways at 390 px: reachable and named for the keyboard (axe
          scrollable-region-focusable). */}
      {reported && (
        <div
          className="usage-table-wrap"
          role="region"
          aria-label={t('usage.tableCaption', { agent: agent.name })}
          tabIndex={0}
        >
          <table className="usage-table">
            <caption>{t('usage.tableCaption', { agent: agent.name })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('usage.col.day')}</th>
                <th scope="col">{t('usage.col.input')}</th>
                <th scope="col">{t('usage.col.cached')}</th>
                <th scope="col">{t('usage.col.output')}</th>
                <th scope="col">{t('usage.col.cost')}</th>
                <th scope="col">{t('usage.col.wakes')}</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day} data-day={d.day}>
                  <th scope="row">{d.day}</th>
                  <td data-kind="input">{formatCount(d.inputTokens, language)}</td>
                  <td data-kind="cached">{formatCount(d.cachedTokens, language)}</td>
                  <td data-kind="output">{formatCount(d.outputTokens, language)}</td>
                  <td data-kind="cost">{formatCost(d.costUsd, language)}</td>
                  <td data-kind="wakes">{formatCount(d.wakes, language)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr data-day="total">
                <th scope="row">{t('usage.total')}</th>
                <td data-kind="input">{formatCount(total.inputTokens, language)}</td>
                <td data-kind="cached">{formatCount(total.cachedTokens, language)}</td>
                <td data-kind="output">{formatCount(total.outputTokens, language)}</td>
                <td data-kind="cost">{formatCost(total.costUsd, language)}</td>
                <td data-kind="wakes">{formatCount(total.wakes, language)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * issue 27: Raise budget — the agent's daily limit (tokens, else cost) in a field, twice the
 * current one to start with; saved into agentteam.json by the daemon. Next to it, issue 39: Remove
 * budget takes the agent's `budget` out of agentteam.json (no daily limit; held wakes go on). A
 * refusal is shown as said.
 */
function RaiseBudget({
  agent,
  budget,
  language,
  raise,
}: {
  readonly agent: AgentIdentity;
  /** null: the agent has no daily budget yet — Set budget (tokens), nothing to remove. */
  readonly budget: Budget | null;
  readonly language: Language;
  readonly raise: NonNullable<UsageViewProps['raiseBudget']>;
}) {
  const t = (key: CopyKey, vars?: Record<string, string | number>) => copy(language, key, vars);
  const kind = budget === null || budget.tokens !== undefined ? 'tokens' : 'cost';
  const current = (kind === 'tokens' ? budget?.tokens : budget?.costUsd) ?? 0;
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const inputId = `raise-${agent.id}`;
  if (!open)
    return (
      <div className="usage-budget-actions">
        <button
          type="button"
          className="usage-raise"
          onClick={() => {
            setValue(budget === null ? '' : String(current * 2));
            setRefusal(null);
            setOpen(true);
          }}
        >
          {t(budget === null ? 'usage.raise.set' : 'usage.raise.open')}
        </button>
        {budget !== null && (
          <button
            type="button"
            className="usage-remove-budget"
            disabled={saving}
            onClick={() => {
              setSaving(true);
              setRefusal(null);
              void raise(agent.id, null).then((refused) => {
                setSaving(false);
                setRefusal(refused);
              });
            }}
          >
            {t('usage.raise.remove')}
          </button>
        )}
        {refusal !== null && (
          <p className="usage-raise-error" role="alert">
            {refusal}
          </p>
        )}
      </div>
    );
  const n = Number(value);
  const valid = kind === 'tokens' ? Number.isInteger(n) && n > 0 : Number.isFinite(n) && n > 0;
  const save = () => {
    if (!valid) return;
    setSaving(true);
    void raise(agent.id, kind === 'tokens' ? { ...budget, tokens: n } : { ...budget, costUsd: n }).then((refused) => {
      setSaving(false);
      if (refused === null) setOpen(false);
      else setRefusal(refused);
    });
  };
  return (
    <form
      className="usage-raise-form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label htmlFor={inputId}>{t(kind === 'tokens' ? 'usage.raise.tokens' : 'usage.raise.cost')}</label>
      <input
        id={inputId}
        type="number"
        inputMode={kind === 'tokens' ? 'numeric' : 'decimal'}
        min={kind === 'tokens' ? 1 : 0.01}
        step={kind === 'tokens' ? 1 : 0.01}
        value={value}
        aria-invalid={valid ? undefined : 'true'}
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit" className="usage-raise-save" disabled={!valid || saving}>
        {t('usage.raise.save')}
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        {t('usage.raise.cancel')}
      </button>
      {!valid && value !== '' && <p className="usage-raise-error">{t('usage.raise.invalid')}</p>}
      {refusal !== null && (
        <p className="usage-raise-error" role="alert">
          {refusal}
        </p>
      )}
    </form>
  );
}

/** The inspector's usage of one wake: tokens by kind and the cost, or "not reported". */
export function WakeUsageFacts({ usage, language }: { readonly usage: WakeUsage | null; readonly language: Language }) {
  const t = (key: CopyKey, vars?: Record<string, string | number>) => copy(language, key, vars);
  return (
    <section
      className="wake-usage"
      aria-labelledby="wake-usage-title"
      data-usage={usage === null ? 'none' : 'reported'}
    >
      <h3 id="wake-usage-title">{t('usage.wake.title')}</h3>
      {usage === null ? (
        <p>{t('usage.wake.none')}</p>
      ) : (
        <dl className="usage-facts">
          <dt>{t('usage.kind.input')}</dt>
          <dd data-kind="input">{formatCount(usage.inputTokens, language)}</dd>
          <dt>{t('usage.kind.cached')}</dt>
          <dd data-kind="cached">{formatCount(usage.cachedTokens, language)}</dd>
          <dt>{t('usage.kind.output')}</dt>
          <dd data-kind="output">{formatCount(usage.outputTokens, language)}</dd>
          <dt>{t('usage.col.cost')}</dt>
          <dd data-kind="cost">{formatCost(usage.costUsd, language)}</dd>
          <dt>{t('usage.col.turns')}</dt>
          <dd data-kind="turns">
            {usage.turns === 1 ? t('usage.wake.turnsOne') : t('usage.wake.turns', { count: usage.turns })}
          </dd>
        </dl>
      )}
    </section>
  );
}

/** The agent detail's usage: today (UTC) and the 7 days, its limit windows and budget. */
export function AgentUsageFacts({
  usage,
  agentId,
  language,
}: {
  readonly usage: UsageStore;
  readonly agentId: string;
  readonly language: Language;
}) {
  const { summary } = useUsage(usage);
  const t = (key: CopyKey, vars?: Record<string, string | number>) => copy(language, key, vars);
  if (summary === null) return null;
  const days = agentDays(summary, agentId, lastDays(summary.today, 7));
  const today = sumDays(days.slice(-1));
  const week = sumDays(days);
  const budget = summary.budgets.find((b) => b.agentId === agentId);
  return (
    <section className="agent-usage" aria-labelledby="agent-usage-title">
      <h2 id="agent-usage-title">{t('usage.title')}</h2>
      <dl className="usage-facts">
        <dt>{t('usage.today')}</dt>
        <dd data-usage="today">{usageLine(today, language)}</dd>
        <dt>{t('usage.week')}</dt>
        <dd data-usage="week">{usageLine(week, language)}</dd>
      </dl>
      <ul className="usage-limits">
        {agentLimits(summary, agentId).map((w) => (
          <li key={w.window} className="usage-window" data-window={w.window}>
            {limitWindowText(w, language)}
          </li>
        ))}
        {budget !== undefined && budget.budget !== null && (
          <li className="usage-budget">{budgetText(budget.budget, budget.state, language)}</li>
        )}
      </ul>
    </section>
  );
}
