#!/usr/bin/env bash
# Teach a trained tile reader more on a lent GPU in one call: several variants side by side on the one card, each
# from the same reader (recognizer/train/fit_real.py --init), each saved as float16 for the trip back.
#   bash training/fit_more_gpu.sh PACK INIT OUT SECONDS "NAME1:OPTIONS1" ["NAME2:OPTIONS2" ...]
# PACK from `python -m recognizer.train.realtiles`, INIT a checkpoint fit_real saved (training/checkpoints/*.pt),
# OPTIONS more fit_real options for that variant (--lr-scale 0.2 --distractor-share 0.1, say).
# OUT gets NAME.pt for each variant (never over one already there) and train.log (added to).
set -u
PACK=$1 INIT=$2 OUT=$3 BUDGET=$4
shift 4
RUN=$(mktemp -d /tmp/fit-more.XXXXXX)  # a fresh folder: a second run never brings back the first run's files
mkdir -p "$OUT"
export PYTHONPATH=$PWD OMP_NUM_THREADS=2 PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
for spec in "$@"; do
  name=${spec%%:*} options=${spec#*:}
  python3 -m recognizer.train.fit_real "$PACK" --init "$INIT" --out "$RUN/$name.pt" --fold -1 \
    --seconds "$BUDGET" --half $options > "$RUN/$name.log" 2>&1 &
done
wait
for spec in "$@"; do
  name=${spec%%:*}
  { echo "== $name: ${spec#*:}"; cat "$RUN/$name.log"; } >> "$OUT/train.log"
  grep -h "steps in\|Error\|error" "$RUN/$name.log"
  if [ ! -e "$RUN/$name.pt" ]; then
    echo "$name: no checkpoint"
  elif [ -e "$OUT/$name.pt" ]; then  # an earlier run's reader is never overwritten
    echo "$OUT/$name.pt exists and is kept; this run's $name is left in $RUN/$name.pt"
  else
    cp "$RUN/$name.pt" "$OUT/"
  fi
done
ls -la "$OUT"
