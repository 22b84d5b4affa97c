#!/usr/bin/env bash
# bench.sh: run the queue model's configurations with tvla and, when
# asked, with the reference TVLA 3, and print a Markdown table (the one in
# README.md).
#
#   programs/queue/bench.sh [-b tvla-binary] [-r] [CONFIG...]
#
# -b  the tvla binary (default: go build into a temporary folder)
# -r  also run the reference (needs TVLA_HOME, java and REF_TVLA, default
#     ../shared/tools/ref-tvla beside the repository; the program is
#     copied to a scratch folder, where TVLA writes its .dt/.out.tvs)
# CONFIG names rows below (default: all but the slow ones marked +);
# "all" runs every row. Each row runs with the original dequeue (O) and
# the simplified one (S, macro DGLM) unless it names one. WORKERS, when
# set, is passed to tvla run --workers (default: one per CPU). BENCH_TIMEOUT (seconds, default 3600) bounds each
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
  mkdir -p "$scratch/ref" && cp "$here"/queue*.tvp "$here"/queue*.tvs "$scratch/ref/"
fi
timeout=${BENCH_TIMEOUT:-3600}

# name | dequeues (OS, O or S) | threads | interleaving | mode | macros
# (space separated; C stands for --collapse-threads) | options for faulty
# runs. A + before the name marks a slow row, run only when named or with
# "all".
configs='
1|OS|1|restricted|threads|THREADS=1|
2|OS|2|restricted|threads|THREADS=2|
+3|OS|3|restricted|threads|THREADS=3|
collapsed|OS|inf|restricted|collapsed|C|
1-full|OS|1|full|threads|THREADS=1 FULL_INTERLEAVING|
+2-full|OS|2|full|threads|THREADS=2 FULL_INTERLEAVING|
+collapsed-full|OS|inf|full|collapsed|C FULL_INTERLEAVING|
1-pure|OS|1|restricted|threads, pure|THREADS=1 PURE_INIT|
2-pure|OS|2|restricted|threads, pure|THREADS=2 PURE_INIT|
collapsed-pure|OS|inf|restricted|collapsed, pure|C PURE_INIT|
bug-tail-c|OS|inf|restricted|collapsed, BUG_ENQ_TAIL_FIRST|C BUG_ENQ_TAIL_FIRST|mm
bug-tail-2|OS|2|restricted|threads, BUG_ENQ_TAIL_FIRST|THREADS=2 BUG_ENQ_TAIL_FIRST|mm
bug-compare-c|OS|inf|restricted|collapsed, BUG_DEQ_NO_COMPARE|C BUG_DEQ_NO_COMPARE|mm
bug-compare-2|OS|2|restricted|threads, BUG_DEQ_NO_COMPARE|THREADS=2 BUG_DEQ_NO_COMPARE|mm
bug-reset-c|OS|inf|restricted|collapsed, BUG_DEQ_RESET_NEXT|C BUG_DEQ_RESET_NEXT|mm
bug-reset-2|OS|2|restricted|threads, BUG_DEQ_RESET_NEXT|THREADS=2 BUG_DEQ_RESET_NEXT|mm
bug-value-c|OS|inf|restricted|collapsed, BUG_DEQ_WRONG_VALUE|C BUG_DEQ_WRONG_VALUE|mm
bug-value-1|OS|1|restricted|threads, BUG_DEQ_WRONG_VALUE|THREADS=1 BUG_DEQ_WRONG_VALUE|mm
nofixup-c|S|inf|restricted|collapsed, NO_TAIL_FIXUP|C NO_TAIL_FIXUP|
nofixup-2|S|2|restricted|threads, NO_TAIL_FIXUP|THREADS=2 NO_TAIL_FIXUP|
'

selected() { # name slow
  local name=$1 slow=$2
  if [ ${#want[@]} -eq 0 ]; then [ "$slow" = 0 ]; return; fi
  for w in "${want[@]}"; do [ "$w" = all ] || [ "$w" = "$name" ] && return 0; done
  return 1
}
want=("$@")

json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

echo "| deq | threads | interleaving | mode | tool | unscheduled | stored | examined | breaches | time s (wall) | peak MB | verdict |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
while IFS='|' read -r name deqs threads inter mode macros opt; do
  [ -n "$name" ] || continue
  slow=0; case $name in +*) slow=1; name=${name#+};; esac
  selected "$name" $slow || continue
  for deq in $(echo "$deqs" | grep -o .); do
  row="| $deq | $threads | $inter | $mode"
  ours=(); theirs=()
  if [ "$deq" = S ]; then ours+=(-D DGLM); theirs+=(-DDGLM); fi
  for m in $macros; do
    if [ "$m" = C ]; then ours+=(--collapse-threads); theirs+=(-DCOLLAPSE_THREADS)
    else ours+=(-D "$m"); k=${m%%=*}; if [ "$k" = "$m" ]; then theirs+=("-D$m"); else theirs+=("-D$k(${m#*=})"); fi; fi
  done
  if [ "$opt" = mm ]; then ours+=(--max-messages 1); theirs+=(-mm 1); fi

  # ours
  /usr/bin/time -f "%e %M" -o "$scratch/time" timeout "$timeout" "$bin" run "$here/queue.tvp" "${ours[@]}" ${WORKERS:+--workers "$WORKERS"} -q --json "$scratch/out.json" >"$scratch/out.txt" 2>&1
  rc=$?
  read -r wall rss < <(tail -1 "$scratch/time" 2>/dev/null) || { wall=?; rss=0; }
  if [ $rc = 124 ] || [ ! -s "$scratch/out.json" ]; then
    echo "$row | tvla | | | | | timeout ($wall) | $((rss/1024)) | timeout |"
  else
    j=$scratch/out.json
    verdict=$(json "$j" "'verified' if d['verified'] else ('msg at '+[l['label'] for l in d['locations'] if l['messages']][0] if d['messages'] else 'exit $rc')")
    echo "$row | tvla | $(json "$j" "d['unscheduled_structures']") | $(json "$j" "d['structures_stored']") | $(json "$j" "d['structures_examined']") | $(json "$j" "d['constraint_breaches']") | $(json "$j" "'%.1f' % d['time_seconds']") ($wall) | $((rss/1024)) | $verdict |"
  fi

  # the reference
  [ $ref = 1 ] || continue
  ( cd "$scratch/ref" && TVLA_TIMEOUT=$timeout /usr/bin/time -f "%e %M" -o "$scratch/rtime" \
      "${REF_TVLA:-$here/../../../shared/tools/ref-tvla}" --json queue.tvp queue.tvs "${theirs[@]}" >"$scratch/ref.json" 2>"$scratch/ref.err" )
  read -r wall rss < <(tail -1 "$scratch/rtime" 2>/dev/null) || { wall=?; rss=0; }
  r=$scratch/ref.json
  if ! python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$r" 2>/dev/null; then
    echo "$row | TVLA 3 | | | | | ($wall) | $((rss/1024)) | error |"
    continue
  fi
  rexit=$(json "$r" "d['exit']")
  if [ "$rexit" = 124 ]; then
    echo "$row | TVLA 3 | | | | | timeout ($wall) | $((rss/1024)) | timeout |"
    continue
  fi
  rverdict=$(json "$r" "'verified' if d['messages']==0 and d['exit']==0 else '%d msg' % d['messages']")
  echo "$row | TVLA 3 | $(json "$r" "d['locations'].get('ready',0)") | $(json "$r" "sum(d['locations'].values())") | $(json "$r" "d['structures_examined']") | $(json "$r" "d['constraint_breaches']") | $(json "$r" "'%.1f' % d['analysis_seconds']") ($wall) | $((rss/1024)) | $rverdict |"
  done
done <<<"$configs"
