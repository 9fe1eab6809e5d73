import { GLOBAL_OPTIONS, type Command } from './command';
import { operations } from './operations';

/** Flags of every command, for the completion scripts. */
function flagsOf(command: Command): string[] {
  return Object.entries({ ...command.options, ...GLOBAL_OPTIONS }).map(([name]) => `--${name}`);
}

/**
 * `kanban completion bash|zsh`: a script that completes command names, `kanban api` operations and
 * each command's flags. It is generated from the same command table and route table as the help,
 * so it never lists a command that does not exist.
 */
export function completionScript(shell: string, commands: Command[]): string | null {
  const names = commands.filter((c) => !c.hidden).map((c) => c.name);
  const ops = operations();
  const cases = [
    ...commands.map((c) => `    ${c.name}) flags="${flagsOf(c).join(' ')}" ;;`),
    ...ops.map((op) => `    "api ${op.name}") flags="${flagsOf(op.command).join(' ')}" ;;`),
  ];
  // Global flags that take a value: the word after them is that value, not the command.
  const valueFlags = Object.entries(GLOBAL_OPTIONS)
    .filter(([, spec]) => spec.type === 'string')
    .map(([name]) => `--${name}`);
  const subcommandCases = commands
    .filter((c) => c.subcommands?.length)
    .map((c) => `    ${c.name}) COMPREPLY=($(compgen -W "${c.subcommands!.join(' ')}" -- "$cur")); return ;;`);
  const choiceCases = commands.flatMap((c) =>
    Object.entries(c.options ?? {})
      .filter(([, spec]) => spec.choices?.length)
      .map(
        ([name, spec]) =>
          `    "${c.name} --${name}") COMPREPLY=($(compgen -W "${spec.choices!.join(' ')}" -- "$cur")); return ;;`,
      ),
  );
  if (shell === 'bash') {
    return `# kanban bash completion: eval "$(kanban completion bash)" (e.g. in ~/.bashrc)
_kanban() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="" op="" flags="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      ${valueFlags.join('|')}) ((i++)) ;;
      -*) ;;
      *) if [[ -z "$cmd" ]]; then cmd="\${COMP_WORDS[i]}"; elif [[ "$cmd" == api && -z "$op" ]]; then op="\${COMP_WORDS[i]}"; fi ;;
    esac
  done
  if [[ -z "$cmd" ]]; then
    COMPREPLY=($(compgen -W "${names.join(' ')} help" -- "$cur"))
    return
  fi
  if [[ "$cmd" == api && -z "$op" && "$cur" != -* ]]; then
    COMPREPLY=($(compgen -W "${ops.map((o) => o.name).join(' ')}" -- "$cur"))
    return
  fi
  case "$cmd \${COMP_WORDS[COMP_CWORD-1]}" in
${choiceCases.join('\n')}
  esac
  if [[ "$cur" != -* ]]; then
    case "$cmd" in
${subcommandCases.join('\n')}
    esac
  fi
  local key="$cmd"
  [[ "$cmd" == api ]] && key="api $op"
  case "$key" in
${cases.join('\n')}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o default -F _kanban kanban
`;
  }
  if (shell === 'zsh') {
    // zsh runs bash completion functions through bashcompinit.
    return `# kanban zsh completion: eval "$(kanban completion zsh)" (e.g. in ~/.zshrc)
autoload -U +X bashcompinit && bashcompinit
${completionScript('bash', commands)}`;
  }
  return null;
}
