/** The agents page: id, name, runtime, model, state and memory (issue 42); the demo agent is marked as demo. */
import type { Agent } from '../../../shared/api/contract.js';
import { copy, type Language } from '../i18n/copy.js';
import { memoryText } from './agent-cost.js';

export function AgentsPage({
  agents,
  language,
  onMessage,
}: {
  agents: readonly Agent[];
  language: Language;
  onMessage(agentId: string): void;
}) {
  const t = (k: Parameters<typeof copy>[1]) => copy(language, k);
  return (
    <section className="page" aria-labelledby="agents-title">
      <h1 id="agents-title">{t('agents.title')}</h1>
      {agents.length === 0 ? (
        <p>{t('agents.none')}</p>
      ) : (
        <table className="agents-table">
          <thead>
            <tr>
              <th scope="col">{t('agents.name')}</th>
              <th scope="col">{t('agents.id')}</th>
              <th scope="col">{t('agents.runtime')}</th>
              <th scope="col">{t('agents.model')}</th>
              <th scope="col">{t('agents.state')}</th>
              <th scope="col">{t('agents.memory')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('agents.message')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {agents.map((a) => (
              <tr key={a.id} data-agent={a.id}>
                <td>
                  {a.name} {a.demo && <span className="tag">{t('agent.demo')}</span>}
                </td>
                <td>
                  <code>@{a.id}</code>
                </td>
                <td>{a.runtime}</td>
                <td>{a.model ?? t('agents.defaultModel')}</td>
                <td className={`state-${a.state}`}>{copy(language, `agent.state.${a.state}`)}</td>
                <td data-field="memory">{memoryText(a) ?? '—'}</td>
                <td>
                  <button type="button" onClick={() => onMessage(a.id)}>
                    {t('agents.message')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
