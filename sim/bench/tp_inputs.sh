# tp_inputs.sh - sourced by sim/bench/thirdparty.sh, sim/bench/lockstep.sh
# and bench/record.sh: the third-party programs' inputs and command lines,
# the same for all (deterministic, a few seconds of cachegrind each).  tp_inputs DIR writes DIR/nums (sort -n),
# DIR/text (gzip, awk) and DIR/tp_json.py (python3; not json.py: the
# script's folder comes first in sys.path).
tp_inputs() {
	awk 'BEGIN { srand(29); for (i = 0; i < 200000; i++) print int(rand() * 1000000000) }' >"$1/nums"
	awk 'BEGIN { srand(7); for (i = 0; i < 40000; i++) { l = ""; for (j = 0; j < 10; j++)
		l = l sprintf("%s%d ", substr("the quick brown fox jumps over lazy dogs", 1 + int(rand() * 30), 5), int(rand() * 100));
		print l } }' >"$1/text"
	cat >"$1/tp_json.py" <<'PY'
import json
d = {"items": [{"id": i, "name": "item%d" % i, "tags": ["a", "b", str(i % 7)],
                "value": i * 0.5} for i in range(30000)]}
s = json.dumps(d)
e = json.loads(s)
print(len(s), sum(x["value"] for x in e["items"]))
PY
}

# tp_program NAME DIR TPBIN: program NAME's command line in the array CMD
# and its environment in ENVV; DIR holds tp_inputs' files, TPBIN the
# bench's own programs (tp_omp, tp_fort, tp_ctest)
tp_program() {
	ENVV=()
	case $1 in
	sort)    CMD=(/usr/bin/sort -n "$2/nums") ;;
	gzip)    CMD=(/usr/bin/gzip -c "$2/text") ;;
	python3) CMD=(/usr/bin/python3 "$2/tp_json.py"); ENVV=(PYTHONHASHSEED=0) ;;
	awk)     CMD=(/usr/bin/awk '{ for (i = 1; i <= NF; i++) n[$i]++ } END { for (k in n) s += n[k]; print s }' "$2/text") ;;
	ctest)   CMD=("$3/tp_ctest" 3) ;;
	omp)     CMD=("$3/tp_omp" 200000 40); ENVV=(OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive) ;;
	fortran) CMD=("$3/tp_fort") ;;
	*)       CMD=("$1") ;;
	esac
}

# tp_setup: a temporary folder TMP, removed at the script's exit, with
# tp_inputs' files; program NAME then sets CMD and ENVV (tp_program)
tp_setup() {
	TMP=$(mktemp -d) || exit 1
	trap 'rm -rf "$TMP"' EXIT
	tp_inputs "$TMP"
}
program() { tp_program "$1" "$TMP" "${TPBIN:-}"; }
TP_FOUR=PAPI_TOT_CYC,PAPI_TOT_INS,PAPI_L1_DCM,PAPI_BR_MSP
