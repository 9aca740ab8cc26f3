#!/usr/bin/env bash
# The rulelens GitHub Action's one step (action.yml runs it; tests/cli/test_action.py runs it too).
#
# Inputs come as INPUT_* variables; it writes `exit-code` (and `sarif-file`) to $GITHUB_OUTPUT.
# With RULELENS_DEFER_EXIT=true it exits 0 so that the SARIF upload still runs, and the action's
# last step fails with the recorded code; without, it exits with rulelens's own code.
set -uo pipefail

command="$(echo "${INPUT_COMMAND:-check}" | xargs)"
format="${INPUT_FORMAT:-github}"
sarif="${INPUT_SARIF:-false}"
python="${RULELENS_PYTHON:-python3}"
out_dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
output="${GITHUB_OUTPUT:-/dev/null}"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"

finish() {
  echo "exit-code=$1" >>"$output"
  if [ "${RULELENS_DEFER_EXIT:-false}" = "true" ]; then
    exit 0
  fi
  exit "$1"
}

fail_usage() {
  echo "::error title=rulelens action::$1"
  finish 2
}

case "$format" in
  github|text|json|markdown) ;;
  *) fail_usage "format must be github, text, json or markdown, not '$format'" ;;
esac

if [ "${RULELENS_SKIP_INSTALL:-false}" != "true" ]; then
  spec="${INPUT_RULELENS:-}"
  if [ -z "$spec" ]; then
    spec="${GITHUB_ACTION_PATH:-}"
    [ -z "$spec" ] && fail_usage "GITHUB_ACTION_PATH is not set: give the rulelens input (what pip installs), or install rulelens and set RULELENS_SKIP_INSTALL=true"
  fi
  "$python" -m pip install --disable-pip-version-check --quiet "$spec" || fail_usage "pip could not install $spec"
  rulelens=("$python" -m rulelens)  # the interpreter pip installed it into
elif [ -z "${RULELENS_PYTHON:-}" ] && command -v rulelens >/dev/null 2>&1; then
  rulelens=(rulelens)  # installed already (pipx, a virtual environment): its own command
else
  rulelens=("$python" -m rulelens)
fi

# GitHub names files from the repository's root: a project in a subfolder (working-directory)
# gets its findings' paths prefixed by rulelens itself; the index annotation below is ours.
prefix="$(git rev-parse --show-prefix 2>/dev/null || true)"

case "$command" in
  check)
    if [ "$sarif" = "true" ]; then
      file="$out_dir/rulelens.sarif"
      "${rulelens[@]}" check --format sarif >"$file"
      code=$?
      echo "sarif-file=$file" >>"$output"
      results="$("$python" -c 'import json,sys; print(sum(len(r["results"]) for r in json.load(open(sys.argv[1]))["runs"]))' "$file" 2>/dev/null || echo "?")"
      echo "rulelens check: $results findings, written to $file for code scanning."
      finish "$code"
    fi
    case "$format" in
      github) "${rulelens[@]}" check --format github ;;
      json) "${rulelens[@]}" check --format json ;;
      *) "${rulelens[@]}" check ;;
    esac
    finish $?
    ;;
  "index --check"|index)
    [ "$sarif" = "true" ] && fail_usage "SARIF is for check only"
    report="$("${rulelens[@]}" index --check)"
    code=$?
    echo "$report"
    if [ "$code" = "1" ] && [ "$format" = "github" ]; then
      index="${prefix}.ai/rules/index.md"
      echo "::error file=$index,line=1,title=rulelens index-stale::$report"
    fi
    finish "$code"
    ;;
  review|"review --base "*)
    [ "$sarif" = "true" ] && fail_usage "SARIF is for check only"
    base="${INPUT_BASE:-}"
    if [ -z "$base" ] && [ "$command" != "review" ]; then
      base="$(echo "${command#review --base }" | xargs)"
    fi
    if [ -z "$base" ] && [ -n "${GITHUB_BASE_REF:-}" ]; then
      base="origin/$GITHUB_BASE_REF"
    fi
    [ -z "$base" ] && fail_usage "review needs a base: set the base input (outside pull requests there is no base branch)"
    case "$format" in
      github)
        # review --format github adds the whole review to $GITHUB_STEP_SUMMARY itself
        "${rulelens[@]}" review --base "$base" --format github
        code=$?
        ;;
      markdown)
        "${rulelens[@]}" review --base "$base" --format markdown | tee -a "$summary"
        code=${PIPESTATUS[0]}
        ;;
      *) "${rulelens[@]}" review --base "$base" --format "$format"; code=$? ;;
    esac
    finish "$code"
    ;;
  verify)
    [ "$sarif" = "true" ] && fail_usage "SARIF is for check only"
    on="$(echo "${INPUT_MOMENT:-read}" | xargs)"
    case "$on" in read|edit|create) ;; *) fail_usage "moment must be read, edit or create, not '$on'" ;; esac
    specs="$(echo "${INPUT_AGENTS:-}" | tr '\n' ' ' | xargs)"
    [ -z "$specs" ] && fail_usage "verify needs the agents input: npm packages pinned to a version, such as @anthropic-ai/claude-code@2.1.337"
    # Where the agents are installed; one kept between runs (actions/cache) skips what it holds.
    prefix="${RULELENS_AGENTS_DIR:-$out_dir/rulelens-agents}"
    mkdir -p "$prefix"
    agent_args=()
    for spec in $specs; do
      name="${spec%@*}"
      version="${spec##*@}"
      if [ -z "$name" ] || [ "$name" = "$spec" ] || ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]]; then
        fail_usage "pin each agent to a version (name@1.2.3), not '$spec'"
      fi
      case "$name" in
        @anthropic-ai/claude-code*) id=claude-code; bin=claude; native="@anthropic-ai/claude-code-linux-*/claude" ;;
        @github/copilot*) id=copilot-cli; bin=copilot; native="@github/copilot-linux-*/copilot" ;;
        @openai/codex*) id=codex; bin=codex; native="@openai/codex-linux-*/vendor/*/bin/codex" ;;
        @google/gemini-cli) id=gemini-cli; bin=gemini; native="@google/gemini-cli/bundle/gemini.js" ;;
        @qwen-code/qwen-code) id=qwen-code; bin=qwen; native="@qwen-code/qwen-code/cli.js" ;;
        *) fail_usage "verify runs Claude Code, Copilot CLI, Codex, Gemini CLI and Qwen Code, not '$name'" ;;
      esac
      installed="$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' \
        "$prefix/node_modules/$name/package.json" 2>/dev/null || true)"
      if [ "$installed" != "$version" ]; then
        echo "Installing $name@$version"
        npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "$name@$version" \
          || fail_usage "npm could not install $name@$version"
      fi
      # The platform's own binary where the package has one (its launcher would start it anyway).
      binary="$(ls -d "$prefix"/node_modules/$native 2>/dev/null | head -1)"
      [ -z "$binary" ] && binary="$prefix/node_modules/.bin/$bin"
      [ -e "$binary" ] || fail_usage "$name@$version installed no $bin binary"
      agent_args+=(--agent "$id=$binary")
    done
    read -r -a paths <<<"${INPUT_PATHS:-}"
    form="$format"
    [ "$form" = "markdown" ] && form=github
    "${rulelens[@]}" verify "${paths[@]}" "${agent_args[@]}" --on "$on" --format "$form"
    finish $?
    ;;
  *)
    fail_usage "command must be check, index --check, review (review --base REF) or verify, not '$command'"
    ;;
esac
