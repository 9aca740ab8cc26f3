"""`rulelens completion bash|zsh|fish`: a completion script, printed, built from the parser.

Written here rather than taken from a library: shtab has no fish, argcomplete runs Python on
every Tab press (rulelens's start-up each time); a static script from the parser itself has
neither cost and cannot drift from the options.
"""

from __future__ import annotations

import argparse

from rulelens.cli.common import EXIT_OK, Run

EXAMPLE = "rulelens completion bash > ~/.local/share/bash-completion/completions/rulelens"
SHELLS = ("bash", "zsh", "fish")
GLOBAL_OPTIONS = False  # the script is the same for every project and always printed


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in: bash, zsh or fish")


def _options(parser: argparse.ArgumentParser) -> list[tuple[list[str], list[str] | None, bool, str]]:
    """Each visible option: its flags, its choices, whether it takes a value, its help."""
    from rulelens.cli.app import expanded_help

    out = []
    for action in parser._actions:  # argparse has no public way to list its options
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        choices = [str(c) for c in action.choices] if action.choices else None
        help_text = expanded_help(action.help or "")
        out.append((list(action.option_strings), choices, action.nargs != 0, help_text))
    return out


def _words(parser: argparse.ArgumentParser) -> list[str]:
    """The values a positional argument takes (`completion`'s shells), if it names them."""
    return [str(c) for a in parser._actions if not a.option_strings and a.choices
            and not isinstance(a, argparse._SubParsersAction) for c in a.choices]


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _bash(top: argparse.ArgumentParser) -> str:
    commands = _commands(top)
    cases = []
    for name, sub in commands.items():
        flags = " ".join([*_words(sub), *(f for flags, *_ in _options(sub) for f in flags)])
        values = "".join(f"      {'|'.join(flags)}) COMPREPLY=($(compgen -W '{' '.join(choices)}' "
                         f"-- \"$cur\")); return;;\n" for flags, choices, _, _ in _options(sub) if choices)
        cases.append(f"    {name})\n      case \"$prev\" in\n{values}"
                     f"      --root) COMPREPLY=($(compgen -d -- \"$cur\")); return;;\n      esac\n"
                     f"      COMPREPLY=($(compgen -W '{flags}' -- \"$cur\") $(compgen -f -- \"$cur\"));;")
    top_flags = " ".join(f for flags, *_ in _options(top) for f in flags)
    return f"""# rulelens completion for bash: source this file, or put it in bash-completion's folder.
_rulelens() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} cmd="" w
  for w in "${{COMP_WORDS[@]:1:COMP_CWORD-1}}"; do
    case "$w" in {'|'.join(commands)}) cmd=$w; break;; esac
  done
  case "$cmd" in
    "")
      [[ $prev == --root ]] && {{ COMPREPLY=($(compgen -d -- "$cur")); return; }}
      COMPREPLY=($(compgen -W '{' '.join(commands)} {top_flags}' -- "$cur"));;
{chr(10).join(cases)}
  esac
}}
complete -o filenames -F _rulelens rulelens
"""


def _quote(text: str) -> str:
    return text.replace("'", "'\\''")


_ZSH_BRIEF = str.maketrans({"[": "(", "]": ")", ":": None})


def _zsh(top: argparse.ArgumentParser) -> str:
    commands = _commands(top)
    described = " ".join(f"'{name}:{_quote(_summary(top, name))}'" for name in commands)
    cases = []
    for name, sub in commands.items():
        specs = []
        for flags, choices, takes, help_text in _options(sub):
            what = f":value:({' '.join(choices)})" if choices else (":folder:_files -/" if "--root" in flags
                                                                   else (":value:" if takes else ""))
            brief = _quote(help_text.split(" (default")[0].translate(_ZSH_BRIEF))
            for flag in flags:
                specs.append(f"'{flag}[{brief}]{what}'")
        words = _words(sub)
        specs.append(f"'1:shell:({' '.join(words)})'" if words else "'*:file:_files'")
        cases.append(f"    {name}) _arguments {' '.join(specs)};;")
    return f"""#compdef rulelens
# rulelens completion for zsh: put this file on $fpath as _rulelens.
_rulelens() {{
  local -a commands=({described})
  if (( CURRENT == 2 )); then
    _describe command commands
    return
  fi
  local cmd=${{words[2]}}
  shift words; (( CURRENT-- ))
  case $cmd in
{chr(10).join(cases)}
  esac
}}
_rulelens "$@"
"""


def _fish(top: argparse.ArgumentParser) -> str:
    commands = _commands(top)
    names = " ".join(commands)
    lines = ["# rulelens completion for fish: save as ~/.config/fish/completions/rulelens.fish",
             "complete -c rulelens -f"]
    for name in commands:
        lines.append(f"complete -c rulelens -n 'not __fish_seen_subcommand_from {names}' -a {name} "
                     f"-d '{_quote_fish(_summary(top, name))}'")
    for name, sub in commands.items():
        cond = f"-n '__fish_seen_subcommand_from {name}'"
        for flags, choices, takes, help_text in _options(sub):
            parts = [f"-l {f[2:]}" if f.startswith("--") else f"-s {f[1:]}" for f in flags]
            value = f" -x -a '{' '.join(choices)}'" if choices else (" -r -F" if takes else "")
            brief = _quote_fish(help_text.split(" (default")[0])
            lines.append(f"complete -c rulelens {cond} {' '.join(parts)}{value} -d '{brief}'")
        if _words(sub):
            lines.append(f"complete -c rulelens {cond} -x -a '{' '.join(_words(sub))}'")
        elif name == "match":
            lines.append(f"complete -c rulelens {cond} -F")
    return "\n".join(lines) + "\n"


def _quote_fish(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "\\'")


def _summary(top: argparse.ArgumentParser, name: str) -> str:
    from rulelens.cli.app import COMMANDS

    return COMMANDS[name]


def run(run: Run) -> int:
    from rulelens.cli.app import build_parser

    top = build_parser()
    script = {"bash": _bash, "zsh": _zsh, "fish": _fish}[run.args.shell](top)
    print(script, end="")
    return EXIT_OK
