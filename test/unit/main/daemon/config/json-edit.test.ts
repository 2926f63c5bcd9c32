import { describe, expect, it } from 'vitest';
import { applyJsonEdits, JsonSyntaxError, parseJsonc } from '../../../../../main/daemon/config/json-edit.js';

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

  it('issue 39: a file with a key written twice is refused (which one is meant?)', () => {
    expect(() => applyJsonEdits('{ "a": 1, "a": 2 }', [{ path: ['a'], value: 3 }])).toThrow(/a is written 2 times/);
  });
});

/** A person's agentteam.json: comments everywhere, a trailing comma, a one-line array. */
const COMMENTED = [
  '{',
  '  // the team',
  '  "agents": [',
  '    {',
  '      "id": "demo", // the demo one',
  '      "runtime": "demo",',
  '      // spend at most this a day',
  '      "budget": { "tokens": 1000 }, // raised on Monday',
  '      /* what it may run */',
  '      "allow": ["Bash(ls)"]',
  '    },',
  '    {',
  '      "id": "b",',
  '      "runtime": "demo",',
  '      "budget": { "tokens": 5 } // the last member',
  '    },',
  '  ],',
  '}',
  '',
].join('\n');

describe('issue 39: JSON with comments — keys removed, comments kept', () => {
  it('removes a key on lines of its own with its comma and its own trailing comment; every other comment stays', () => {
    const out = applyJsonEdits(COMMENTED, [{ path: ['agents', 0, 'budget'], remove: true }]);
    expect(out).toBe(COMMENTED.replace('      "budget": { "tokens": 1000 }, // raised on Monday\n', ''));
    expect(out).toContain('// spend at most this a day');
    expect(parseJsonc(out)).toMatchObject({ agents: [{ id: 'demo', allow: ['Bash(ls)'] }, { budget: { tokens: 5 } }] });
    expect((parseJsonc(out) as { agents: object[] }).agents[0]).not.toHaveProperty('budget');
  });

  it('removing the last member takes the comma of the one before it (no trailing comma appears)', () => {
    const out = applyJsonEdits(COMMENTED, [{ path: ['agents', 1, 'budget'], remove: true }]);
    expect(out).toBe(
      COMMENTED.replace(
        '"runtime": "demo",\n      "budget": { "tokens": 5 } // the last member\n',
        '"runtime": "demo"\n',
      ),
    );
  });

  it('removes the first, middle and last member of a one-line object, keeping a comment between members', () => {
    const text = '{ "x": { "a": 1, /* keep */ "b": 2, "c": 3 } }';
    expect(applyJsonEdits(text, [{ path: ['x', 'a'], remove: true }])).toBe('{ "x": { /* keep */ "b": 2, "c": 3 } }');
    expect(applyJsonEdits(text, [{ path: ['x', 'b'], remove: true }])).toBe('{ "x": { "a": 1, /* keep */ "c": 3 } }');
    expect(applyJsonEdits(text, [{ path: ['x', 'c'], remove: true }])).toBe('{ "x": { "a": 1, /* keep */ "b": 2 } }');
    expect(applyJsonEdits('{ "x": { "a": 1 } }', [{ path: ['x', 'a'], remove: true }])).toBe('{ "x": { } }');
  });

  it('removing a key that is not there changes nothing', () => {
    expect(applyJsonEdits(COMMENTED, [{ path: ['agents', 0, 'cwd'], remove: true }])).toBe(COMMENTED);
    expect(applyJsonEdits(COMMENTED, [{ path: ['channels', 'local'], remove: true }])).toBe(COMMENTED);
  });

  it('sets a value in place: comments, the trailing commas and the one-line array stay', () => {
    const out = applyJsonEdits(COMMENTED, [{ path: ['agents', 0, 'budget'], value: { tokens: 5000, costUsd: 2 } }]);
    expect(out).toBe(COMMENTED.replace('{ "tokens": 1000 }', '{ "tokens": 5000, "costUsd": 2 }'));
  });

  it('inserts after a last member with a comment on its line: the comment stays with its member', () => {
    const out = applyJsonEdits(COMMENTED, [{ path: ['agents', 1, 'cwd'], value: '/work' }]);
    expect(out).toBe(
      COMMENTED.replace(
        '"budget": { "tokens": 5 } // the last member\n',
        '"budget": { "tokens": 5 }, // the last member\n      "cwd": "/work"\n',
      ),
    );
    // A trailing comma after the last member stays the file's style.
    const trailing = '{\n  "a": 1, // one\n}\n';
    expect(applyJsonEdits(trailing, [{ path: ['b'], value: 2 }])).toBe('{\n  "a": 1, // one\n  "b": 2,\n}\n');
  });

  it('refuses text that is not JSON with comments: what and where, and nothing is changed', () => {
    const broken = '{\n  // fine\n  "agents": [\n    { "id": "x" \n  ]\n}\n';
    const attempt = () => applyJsonEdits(broken, [{ path: ['agents', 0, 'cwd'], value: '/x' }]);
    expect(attempt).toThrow(JsonSyntaxError);
    expect(attempt).toThrow('line 5, column 3: expected "," (or the end of the object or array)');
    expect(() => parseJsonc('{ "a": "b\nc" }')).toThrow('line 1, column 8: a string is not closed on its line');
    expect(() => parseJsonc('')).toThrow('line 1, column 1: expected a value');
  });

  it('parses comments and trailing commas like JSON.parse parses JSON', () => {
    expect(parseJsonc(COMMENTED)).toEqual({
      agents: [
        { id: 'demo', runtime: 'demo', budget: { tokens: 1000 }, allow: ['Bash(ls)'] },
        { id: 'b', runtime: 'demo', budget: { tokens: 5 } },
      ],
    });
    expect(parseJsonc('\ufeff{"a": [1, 2.5e3, null, true, "\\u00e9"]}')).toEqual({ a: [1, 2500, null, true, 'é'] });
  });
});
