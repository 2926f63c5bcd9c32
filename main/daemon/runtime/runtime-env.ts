/**
 * The inherited basics every runtime CLI gets (PATH, locale, temp dir, TLS and proxy settings)
 * before the agent's own env and the daemon's isolation vars are layered on top. The rest of
 * the daemon's environment is not passed on: a runtime must not see another agent's tokens or
 * the operator's provider keys unless the agent's config gives them.
 */
const INHERITED = [
  'PATH',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'APPDATA',
  'LOCALAPPDATA',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

export function runtimeBaseEnv(
  source: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (INHERITED.includes(key) || key.startsWith('LC_')) env[key] = value;
  }
  return env;
}
