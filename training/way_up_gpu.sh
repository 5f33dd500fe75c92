#!/usr/bin/env bash
# Train the way-up reader on a lent GPU in one call: the reader that ships (every upright crop of the pack) and the six
# that each leave one fold out, read on that fold's real crops unseen (recognizer/train/way_up.py), side by side.
#   bash training/way_up_gpu.sh PACK WEIGHTS OUT [SECONDS]
# OUT gets final.pt, fold0.pt ... fold5.pt and train.log: the eight files a lent GPU brings back.
set -u
PACK=$1 WEIGHTS=$2 OUT=$3 BUDGET=${4:-300}
RUN=$(mktemp -d /tmp/way-up-run.XXXXXX)  # a fresh folder: a second run never brings back the first run's files
mkdir -p "$OUT" "$RUN"
export PYTHONPATH=$PWD OMP_NUM_THREADS=2 PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
for k in -1 0 1 2 3 4 5; do
  name=$([ "$k" = -1 ] && echo final || echo "fold$k")
  python3 -m recognizer.train.way_up "$PACK" --weights "$WEIGHTS" --fold "$k" --out "$RUN/$name.pt" \
    --seconds "$BUDGET" --steps 3000 > "$RUN/$name.log" 2>&1 &
done
wait
cat "$RUN"/*.log > "$OUT/train.log"
grep -h "way up\|steps in\|Error\|error" "$RUN"/*.log
cp "$RUN"/*.pt "$OUT"/
ls -la "$OUT"
