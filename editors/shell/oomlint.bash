# bash completion for oomlint: subcommands, options, their values, and rule
# codes after `rule`. Installed as share/bash-completion/completions/oomlint.
_oomlint() {
  local cur prev
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  case $prev in
    --output-format)
      COMPREPLY=($(compgen -W "full concise json json-lines github sarif gitlab junit" -- "$cur")); return ;;
    --color)
      COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --select | --extend-select | --ignore)
      COMPREPLY=($(compgen -W "ALL $(oomlint rules --output-format json 2>/dev/null | grep -o '"OOM[0-9]*"' | tr -d '"')" -- "$cur")); return ;;
    --config)
      COMPREPLY=($(compgen -f -X '!*.toml' -- "$cur")); return ;;
    --rules-dir | --cache-dir)
      COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --gpu-memory | --assume | --max-batch-size | -j | --threads | --stdin-filename)
      return ;;
    rule)
      COMPREPLY=($(compgen -W "--predicates $(oomlint rules --output-format json 2>/dev/null | grep -o '"OOM[0-9]*"' | tr -d '"')" -- "$cur")); return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "--select --extend-select --ignore --output-format --fix --no-fix --unsafe-fixes
      --no-unsafe-fixes --diff --show-fixes --no-show-fixes --statistics --exit-zero --stdin-filename --rules-dir
      --gpu-memory --assume --max-batch-size --config --isolated --show-settings --no-cache --cache-dir --threads -j --color --quiet -q --help -h
      --version -V" -- "$cur"))
  elif [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "check rule rules estimate server" -- "$cur") $(compgen -f -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _oomlint oomlint
