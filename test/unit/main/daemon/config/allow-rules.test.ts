/** issue 14: an "always" answer writes exactly the shown rule into that agent's entry, through the config source. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addAllowRule } from '../../../../../main/daemon/config/allow-rules.js';
import { ConfigSource } from '../../../../../main/daemon/config/config-source.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

let dir: TempDir;
let source: ConfigSource | null = null;
beforeEach(() => (dir = makeTempDir('agentteam-allow-rules-')));
afterEach(() => {
  source?.close();
  source = null;
  dir.remove();
});

const file = () => join(dir.path, 'agentteam.json');
// The person's own layout: 4-space indent, one agent per line, key order of their choosing.
const PERSON = [
  '{',
  '    "agents": [',
  '        { "id": "demo", "name": "Demo", "runtime": "demo" },',
  '        { "runtime": "claude-code", "id": "claude", "name": "Claude", "allow": ["Bash(ls)"] }',
  '    ]',
  '}',
  '',
].join('\n');

describe('addAllowRule', () => {
  it('adds the rule to that agent only, keeps every other byte, and the source sees it at once', () => {
    writeFileSync(file(), PERSON);
    source = ConfigSource.open(dir.path);
    expect(addAllowRule(source, 'claude', 'Bash(npm test)')).toBeNull();
    expect(readFileSync(file(), 'utf8')).toBe(PERSON.replace('["Bash(ls)"]', '[ "Bash(ls)", "Bash(npm test)" ]'));
    expect(source.config.agents.find((a) => a.id === 'claude')?.allow).toEqual(['Bash(ls)', 'Bash(npm test)']);
    // The same rule again changes nothing.
    expect(addAllowRule(source, 'claude', 'Bash(npm test)')).toBeNull();
    expect(source.config.agents.find((a) => a.id === 'claude')?.allow).toEqual(['Bash(ls)', 'Bash(npm test)']);
  });

  it('says why and writes nothing for an unknown agent, or while the file holds an edit that cannot be used', () => {
    writeFileSync(file(), PERSON);
    source = ConfigSource.open(dir.path);
    expect(addAllowRule(source, 'nobody', 'Bash(ls)')).toMatch(/no agent "nobody"/);
    expect(readFileSync(file(), 'utf8')).toBe(PERSON);
    const broken = PERSON.replace('"Claude"', '"Claude",');
    writeFileSync(file(), broken);
    expect(addAllowRule(source, 'claude', 'Bash(npm test)')).toMatch(/Nothing was saved/);
    expect(readFileSync(file(), 'utf8')).toBe(broken);
  });
});
