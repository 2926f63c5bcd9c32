import { describe, expect, it } from 'vitest';
import { applyJsonEdits } from '../../../../../main/daemon/config/json-edit.js';

const PERSON = `{
  // not JSON: see below
}`;

describe('applyJsonEdits: minimal rewrites of agentteam.json', () => {
  const file = [
    '{',
    '    "agents": [ { "id": "demo", "name": "Demo", "runtime": "demo" } ],',
    '    "channels": {',
    '        "local": {',
    '            "silenceWatchdog": { "thresholdSeconds": 45, "maxBeacons": 5 },',
    '            "responseDelivery": {',
    '                "retryCount": 1',
    '            }',
    '        }',
    '    }',
    '}',
    '',
  ].join('\n');

  it('replaces one value in place: every other byte stays', () => {
    const out = applyJsonEdits(file, [
      { path: ['channels', 'local', 'silenceWatchdog', 'thresholdSeconds'], value: 90 },
    ]);
    expect(out).toBe(file.replace('"thresholdSeconds": 45', '"thresholdSeconds": 90'));
  });

  it('steps into an existing array element by index (issue 14: an agent entry); a missing one is an error', () => {
    const out = applyJsonEdits(file, [{ path: ['agents', 0, 'allow'], value: ['Bash(npm test)'] }]);
    expect(out).toBe(file.replace('"runtime": "demo" }', '"runtime": "demo", "allow": [ "Bash(npm test)" ] }'));
    expect(() => applyJsonEdits(file, [{ path: ['agents', 1, 'allow'], value: [] }])).toThrow(
      /agents\.1 does not exist/,
    );
  });

  it('inserts a missing key after the last member, with the indentation of its siblings', () => {
    const out = applyJsonEdits(file, [{ path: ['channels', 'local', 'responseDelivery', 'retryDelayMs'], value: 500 }]);
    expect(out).toBe(
      file.replace(
        '                "retryCount": 1\n',
        '                "retryCount": 1,\n                "retryDelayMs": 500\n',
      ),
    );
    expect(JSON.parse(out).channels.local.responseDelivery).toEqual({ retryCount: 1, retryDelayMs: 500 });
  });

  it('a one-line object stays on one line', () => {
    const out = applyJsonEdits(file, [{ path: ['channels', 'local', 'silenceWatchdog', 'enabled'], value: false }]);
    expect(out).toContain('"silenceWatchdog": { "thresholdSeconds": 45, "maxBeacons": 5, "enabled": false },');
  });

  it('creates the missing objects of a path, nested under the innermost one that exists', () => {
    const bare = '{\n  "agents": []\n}\n';
    const out = applyJsonEdits(bare, [
      { path: ['channels', 'local', 'silenceWatchdog', 'thresholdSeconds'], value: 30 },
      { path: ['channels', 'local', 'silenceWatchdog', 'maxBeacons'], value: 2 },
    ]);
    expect(out).toBe(
      [
        '{',
        '  "agents": [],',
        '  "channels": {',
        '    "local": {',
        '      "silenceWatchdog": {',
        '        "thresholdSeconds": 30,',
        '        "maxBeacons": 2',
        '      }',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('opens an empty object over lines; keeps CRLF line endings and a BOM', () => {
    const crlf = '\ufeff{\r\n  "channels": { "local": {} }\r\n}\r\n';
    const out = applyJsonEdits(crlf, [{ path: ['channels', 'local', 'responseDelivery'], value: { retryCount: 3 } }]);
    expect(out.startsWith('\ufeff{\r\n')).toBe(true);
    expect(out).not.toMatch(/[^\r]\n/);
    expect(JSON.parse(out.slice(1)).channels.local.responseDelivery).toEqual({ retryCount: 3 });
  });

  it('keys and strings with escapes are read exactly', () => {
    const text = '{"channels":{"lo\\"cal":{"x":"a\\\\"},"local":{"silenceWatchdog":{"message":"hi \\"there\\""}}}}';
    const out = applyJsonEdits(text, [{ path: ['channels', 'local', 'silenceWatchdog', 'message'], value: 'ok' }]);
    expect(JSON.parse(out)).toEqual({
      channels: { 'lo"cal': { x: 'a\\' }, local: { silenceWatchdog: { message: 'ok' } } },
    });
  });

  it('refuses what is not JSON (the caller never gets here with such a file)', () => {
    expect(() => applyJsonEdits(PERSON, [{ path: ['a'], value: 1 }])).toThrow(/json-edit/);
  });
});
