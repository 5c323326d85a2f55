#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer harnesses (fuzz/fuzz_<target>.cpp; the fuzz preset: clang, ASan + UBSan,
# in build/fuzz) and runs them.
#
#   scripts/fuzz.sh list              the targets
#   scripts/fuzz.sh TARGET SECONDS    runs one target for SECONDS
#   scripts/fuzz.sh all SECONDS       runs every target for SECONDS, one after another
#
# Each run starts from the seeds (fuzz/corpus/TARGET and files cut from tests/data, gathered into
# build/fuzz/seeds/TARGET) and the corpus earlier runs grew (build/fuzz/corpus/TARGET), and prints
# the executions reached and the corpus size. A crash, leak, hang (an input running over 10 s),
# undefined behaviour or broken property stops the target: the input is kept in
# build/fuzz/artifacts/TARGET/, the report is printed, and the script exits 1 once every target
# asked for has run. Needs clang and libFuzzer: scripts/install-deps.sh --fuzz installs them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build=build/fuzz
data=tests/data

usage() {
    echo "usage: scripts/fuzz.sh list | TARGET SECONDS | all SECONDS" >&2
    exit 2
}

targets() {
    local source
    for source in fuzz/fuzz_*.cpp; do
        source=${source#fuzz/fuzz_}
        echo "${source%.cpp}"
    done
}

# The longest input libFuzzer makes for a target: past the text parsers' 64 KiB line limit, room for
# multi-thread traces and small databases, and no more (longer inputs only run slower).
max_len() {
    case "$1" in
    lackeyparser | tenetparser) echo 80000 ;;
    csvaccessformat) echo 8192 ;;
    *) echo 65536 ;;
    esac
}

# Cuts `count` bytes from the start (head) or end (tail) of a file, gunzipping it first when it is
# gzipped, without pipefail tripping over the decompressor's SIGPIPE.
cut_seed() {
    local where=$1 count=$2 file=$3 output=$4
    (
        set +o pipefail
        if [[ $file == *.gz ]]; then gzip -dc "$file"; else cat "$file"; fi | "$where" -c "$count" >"$output"
    )
}

gather_seeds() {
    local target=$1 seeds=$build/seeds/$1
    rm -rf "$seeds"
    mkdir -p "$seeds"
    if [[ -d fuzz/corpus/$target ]]; then
        cp fuzz/corpus/"$target"/* "$seeds"/
    fi
    case "$target" in
    lackeyparser)
        cut_seed head 4096 $data/lackey/true.tiny.lackey "$seeds"/true-start.lackey
        cut_seed tail 2048 $data/lackey/true.tiny.lackey "$seeds"/true-end.lackey
        cut_seed head 8192 $data/lackey/echo_verbose_logfd1.noisy.lackey.gz "$seeds"/noisy-start.lackey
        (
            set +o pipefail
            gzip -dc $data/lackey/echo_verbose_logfd1.noisy.lackey.gz | grep -a -m1 -B40 -A40 HELLO-FROM-PROGRAM \
                >"$seeds"/noisy-program-output.lackey
        )
        ;;
    tenetparser)
        cut_seed head 4096 $data/tenet/boombox.trace.0.log "$seeds"/boombox-start.log
        cut_seed tail 4096 $data/tenet/boombox.trace.0.log "$seeds"/boombox-end.log
        ;;
    csvaccessformat)
        cp $data/csv/*.csv "$seeds"/
        ;;
    threaddecoder)
        cp $data/drmemtrace/drmemtrace.small.x64.trace "$seeds"/
        ;;
    zipchunkstream)
        cp $data/drmemtrace/bad/chunk-size-not-multiple.trace.zip "$seeds"/
        cp $data/drmemtrace/as_traced.x64.tracedir/cpu_schedule.bin.zip "$seeds"/
        ;;
    gzipfilestream)
        cp $data/drmemtrace/legacy-gz.x64.tracedir/*.gz "$seeds"/
        cp $data/drmemtrace/threadsig.x64.tracedir/serial_schedule.bin.gz "$seeds"/
        # Two gzip members one after the other, as gzip(1) reads them.
        cat $data/drmemtrace/as_traced.x64.tracedir/serial_schedule.bin.gz \
            $data/drmemtrace/legacy-gz.x64.tracedir/drmemtrace.threadsig.10510.0155.trace.gz >"$seeds"/two-members.gz
        ;;
    esac
}

build_targets() {
    if ! command -v clang++ >/dev/null 2>&1; then
        echo "fuzz: clang++ not found; install it with: scripts/install-deps.sh --fuzz" >&2
        exit 1
    fi
    cmake --preset fuzz >/dev/null
    local names=()
    local target
    for target in "$@"; do
        names+=("fuzz_$target")
    done
    cmake --build --preset fuzz -j"$(nproc)" --target "${names[@]}"
}

failed=()

run_target() {
    local target=$1 seconds=$2
    local corpus=$build/corpus/$target artifacts=$build/artifacts/$target log=$build/logs/$target.log
    gather_seeds "$target"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    local options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -max_len="$(max_len "$target")"
        -print_final_stats=1 -artifact_prefix="$artifacts/")
    if [[ -f fuzz/$target.dict ]]; then
        options+=(-dict="fuzz/$target.dict")
    fi
    echo "fuzz: $target for $seconds s"
    touch "$log.start"
    local status=0
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$build/fuzz/fuzz_$target" "${options[@]}" "$corpus" "$build/seeds/$target" >"$log" 2>&1 || status=$?
    # libFuzzer's status lines: "#123456  DONE  cov: 812 ft: 2730 corp: 391/64Kb ..." at the end, or
    # the last "#N ..." before a crash; its final statistics give the exact count.
    local executions corpus_size
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    [[ -n $executions ]] || executions=$(grep -ao '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    corpus_size=$(grep -a '^#[0-9]' "$log" | grep -ao 'corp: [0-9]*/[0-9]*[a-zA-Z]*' | tail -1)
    corpus_size=${corpus_size#corp: }
    if [[ $status -eq 0 ]]; then
        echo "fuzz: $target: ${executions:-0} executions in $seconds s; corpus ${corpus_size%/*} inputs" \
            "(${corpus_size#*/}), $(find "$corpus" -type f | wc -l) files in $corpus"
        return
    fi
    failed+=("$target")
    echo "fuzz: $target FAILED (exit $status) after ${executions:-0} executions; the report:" >&2
    # The sanitizer's or the harness's report, from its first line.
    sed -n '/ERROR: \|runtime error\|memhist fuzz: property broken\|ALARM: working on the last Unit/,$p' "$log" |
        head -80 >&2
    local artifact
    find "$artifacts" -type f -newer "$log.start" | while read -r artifact; do
        echo "fuzz: reproduce with: $build/fuzz/fuzz_$target $artifact" >&2
    done
}

case "${1:-}" in
list)
    [[ $# -eq 1 ]] || usage
    targets
    ;;
all)
    [[ $# -eq 2 && $2 =~ ^[0-9]+$ ]] || usage
    mapfile -t all < <(targets)
    build_targets "${all[@]}"
    for target in "${all[@]}"; do
        run_target "$target" "$2"
    done
    ;;
"")
    usage
    ;;
*)
    [[ $# -eq 2 && $2 =~ ^[0-9]+$ ]] || usage
    if [[ ! -f fuzz/fuzz_$1.cpp ]]; then
        echo "fuzz: no target '$1'; the targets are: $(targets | tr '\n' ' ')" >&2
        exit 2
    fi
    build_targets "$1"
    run_target "$1" "$2"
    ;;
esac

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz: FAILED: ${failed[*]}" >&2
    exit 1
fi
