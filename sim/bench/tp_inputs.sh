# tp_inputs.sh - sourced by sim/bench/thirdparty.sh and bench/record.sh: the
# third-party programs' inputs, the same for both (deterministic, a few
# seconds of cachegrind each).  tp_inputs DIR writes DIR/nums (sort -n),
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
