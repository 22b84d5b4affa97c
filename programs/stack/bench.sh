#!/usr/bin/env bash
# bench.sh: run the stack model's configurations with tvla and, when
# TVLA_HOME is set, with the reference TVLA 3, and print a Markdown table
# (the one in README.md).
#
#   programs/stack/bench.sh [-b tvla-binary] [-r] [CONFIG...]
#
# -b  the tvla binary (default: go build into a temporary folder)
# -r  also run the reference (needs TVLA_HOME, java and REF_TVLA, default
#     ../shared/tools/ref-tvla beside the repository; the program is
#     copied to a scratch folder, where TVLA writes its .dt/.out.tvs)
# CONFIG names rows below (default: all but the slow ones marked +);
# "all" runs every row. BENCH_TIMEOUT (seconds, default 3600) bounds each
# run; a run that hits it is reported as "timeout".
#
# Columns: unscheduled / stored / examined structures, constraint breaches,
# analysis time (the tool's own clock) and wall time, peak resident memory
# (/usr/bin/time; the JVM's for the reference), and the verdict: verified,
# "msg" with the first message's location for the faulty variants (which
# stop at the first message: --max-messages 1, TVLA's -mm 1).
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=""; ref=0
while [ $# -gt 0 ]; do
  case $1 in
    -b) bin=$2; shift 2 ;;
    -r) ref=1; shift ;;
    *) break ;;
  esac
done
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
if [ -z "$bin" ]; then
  (cd "$here/../.." && go build -o "$scratch/tvla" ./cmd/tvla) || exit 2
  bin=$scratch/tvla
fi
if [ $ref = 1 ]; then
  : "${TVLA_HOME:?set TVLA_HOME to an extracted TVLA 3 snapshot}"
  mkdir -p "$scratch/ref" && cp "$here"/stack*.tvp "$here"/stack.tvs "$scratch/ref/"
fi
timeout=${BENCH_TIMEOUT:-3600}

# name | threads | interleaving | mode | macros (space separated; C stands
# for --collapse-threads) | options for faulty runs. A + before the name
# marks a slow row, run only when named or with "all".
configs='
1|1|restricted|threads|THREADS=1|
2|2|restricted|threads|THREADS=2|
3|3|restricted|threads|THREADS=3|
+inf|inf|restricted|threads||
collapsed|inf|restricted|collapsed|C|
1-full|1|full|threads|THREADS=1 FULL_INTERLEAVING|
2-full|2|full|threads|THREADS=2 FULL_INTERLEAVING|
collapsed-full|inf|full|collapsed|C FULL_INTERLEAVING|
1-pure|1|restricted|threads, pure|THREADS=1 PURE_INIT|
2-pure|2|restricted|threads, pure|THREADS=2 PURE_INIT|
collapsed-pure|inf|restricted|collapsed, pure|C PURE_INIT|
bug-compare-c|inf|restricted|collapsed, BUG_PUSH_NO_COMPARE|C BUG_PUSH_NO_COMPARE|mm
bug-compare-2|2|restricted|threads, BUG_PUSH_NO_COMPARE|THREADS=2 BUG_PUSH_NO_COMPARE|mm
bug-early-c|inf|restricted|collapsed, BUG_POP_EARLY_LP|C BUG_POP_EARLY_LP|mm
bug-early-2|2|restricted|threads, BUG_POP_EARLY_LP|THREADS=2 BUG_POP_EARLY_LP|mm
bug-value-c|inf|restricted|collapsed, BUG_POP_WRONG_VALUE|C BUG_POP_WRONG_VALUE|mm
bug-value-2|2|restricted|threads, BUG_POP_WRONG_VALUE|THREADS=2 BUG_POP_WRONG_VALUE|mm
bug-nolp-c|inf|restricted|collapsed, BUG_PUSH_NO_LP|C BUG_PUSH_NO_LP|mm
bug-nolp-2|2|restricted|threads, BUG_PUSH_NO_LP|THREADS=2 BUG_PUSH_NO_LP|mm
'

selected() { # name slow
  local name=$1 slow=$2
  if [ ${#want[@]} -eq 0 ]; then [ "$slow" = 0 ]; return; fi
  for w in "${want[@]}"; do [ "$w" = all ] || [ "$w" = "$name" ] && return 0; done
  return 1
}
want=("$@")

json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

echo "| threads | interleaving | mode | tool | unscheduled | stored | examined | breaches | time s (wall) | peak MB | verdict |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
while IFS='|' read -r name threads inter mode macros opt; do
  [ -n "$name" ] || continue
  slow=0; case $name in +*) slow=1; name=${name#+};; esac
  selected "$name" $slow || continue
  ours=(); theirs=()
  for m in $macros; do
    if [ "$m" = C ]; then ours+=(--collapse-threads); theirs+=(-DCOLLAPSE_THREADS)
    else ours+=(-D "$m"); k=${m%%=*}; if [ "$k" = "$m" ]; then theirs+=("-D$m"); else theirs+=("-D$k(${m#*=})"); fi; fi
  done
  if [ "$opt" = mm ]; then ours+=(--max-messages 1); theirs+=(-mm 1); fi

  # ours
  /usr/bin/time -f "%e %M" -o "$scratch/time" timeout "$timeout" "$bin" run "$here/stack.tvp" "${ours[@]}" -q --json "$scratch/out.json" >"$scratch/out.txt" 2>&1
  rc=$?
  read -r wall rss < <(tail -1 "$scratch/time" 2>/dev/null) || { wall=?; rss=0; }
  if [ $rc = 124 ] || [ ! -s "$scratch/out.json" ]; then
    echo "| $threads | $inter | $mode | tvla | | | | | timeout ($wall) | $((rss/1024)) | timeout |"
  else
    j=$scratch/out.json
    verdict=$(json "$j" "'verified' if d['verified'] else ('msg at '+[l['label'] for l in d['locations'] if l['messages']][0] if d['messages'] else 'exit $rc')")
    echo "| $threads | $inter | $mode | tvla | $(json "$j" "d['unscheduled_structures']") | $(json "$j" "d['structures_stored']") | $(json "$j" "d['structures_examined']") | $(json "$j" "d['constraint_breaches']") | $(json "$j" "'%.1f' % d['time_seconds']") ($wall) | $((rss/1024)) | $verdict |"
  fi

  # the reference
  [ $ref = 1 ] || continue
  ( cd "$scratch/ref" && TVLA_TIMEOUT=$timeout /usr/bin/time -f "%e %M" -o "$scratch/rtime" \
      "${REF_TVLA:-$here/../../../shared/tools/ref-tvla}" --json stack.tvp stack.tvs "${theirs[@]}" >"$scratch/ref.json" 2>"$scratch/ref.err" )
  read -r wall rss < <(tail -1 "$scratch/rtime" 2>/dev/null) || { wall=?; rss=0; }
  r=$scratch/ref.json
  if ! python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$r" 2>/dev/null; then
    echo "| $threads | $inter | $mode | TVLA 3 | | | | | ($wall) | $((rss/1024)) | error |"
    continue
  fi
  rexit=$(json "$r" "d['exit']")
  if [ "$rexit" = 124 ]; then
    echo "| $threads | $inter | $mode | TVLA 3 | | | | | timeout ($wall) | $((rss/1024)) | timeout |"
    continue
  fi
  rverdict=$(json "$r" "'verified' if d['messages']==0 and d['exit']==0 else '%d msg' % d['messages']")
  echo "| $threads | $inter | $mode | TVLA 3 | $(json "$r" "d['locations'].get('ready',0)") | $(json "$r" "sum(d['locations'].values())") | $(json "$r" "d['structures_examined']") | $(json "$r" "d['constraint_breaches']") | $(json "$r" "'%.1f' % d['analysis_seconds']") ($wall) | $((rss/1024)) | $rverdict |"
done <<<"$configs"
