import type { McpServerConfig } from './config';

export type SecretKind = 'env' | 'headers';

/**
 * What a secret of mcp.json was entered for: the URL origin a header goes to, or the program an env value is given
 * to (command, arguments and folder: the same command in another folder can run another script). A mask is turned
 * back into its value only for the same target, so editing the URL or command cannot redirect a stored secret.
 */
export function secretTarget(s: McpServerConfig, kind: SecretKind): string {
  if (kind === 'headers') return s.url ? new URL(s.url).origin : '';
  return JSON.stringify([s.command ?? '', s.args ?? [], s.cwd ?? '']);
}

const MAX_SHOWN = 300;

function describeTarget(kind: SecretKind, target: string): string {
  if (kind === 'headers') return target;
  const [command, args, cwd] = JSON.parse(target) as [string, string[], string];
  // Quoted only where a shell would need it, so the usual `npx -y pkg` reads as written.
  const line = [command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
  const shown = cwd ? `${line} (in ${cwd})` : line;
  return shown.length > MAX_SHOWN ? `${shown.slice(0, MAX_SHOWN)}…` : shown;
}

/** Why a stored value is not restored for its mask: it was entered for `was` (undefined: not known), not `now`. */
export function targetChangedMessage(
  slot: { server: string; kind: SecretKind; name: string },
  was: string | undefined,
  now: string,
): string {
  const what =
    slot.kind === 'headers'
      ? `The ${slot.name} header of "${slot.server}"`
      : `The env value ${slot.name} of "${slot.server}"`;
  if (was === undefined)
    return `${what} was stored before HubDesk noted what each value is for, and mcp.json could not be read then: type it again.`;
  return slot.kind === 'headers'
    ? `${what} was entered for ${describeTarget('headers', was)}; the URL now goes to ${describeTarget('headers', now)}, so the stored value is not sent there: type it again.`
    : `${what} was entered for the command ${describeTarget('env', was)}; the command is now ${describeTarget('env', now)}, so the stored value is not given to it: type it again.`;
}
