#!/bin/sh
# t_utils_tools.t - the nb_encode, nb_decode and nb_schedule tools: help,
# exit codes, error messages, and known answers (seed 003's perfex
# configurations).  Uses $NB_UTILS_BIN (make utils), else build/utils.
B=${NB_UTILS_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/build/utils}
n=0
t() {  # t DESCRIPTION EXPECTED_RC GREP_PATTERN COMMAND...
	d=$1; want=$2; pat=$3; shift 3
	out=$("$@" 2>&1); rc=$?
	n=$((n + 1))
	if [ "$rc" = "$want" ] && printf '%s\n' "$out" | grep -q -- "$pat"; then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d (exit $rc, want $want; /$pat/)"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
}
# Every option a tool's --help names is in its man page (nb_encode's
# common options in nb_schedule(1), which its page points to).
man=$(cd "$(dirname "$0")/../.." && pwd)/man
for u in nb_encode nb_decode nb_schedule nb_stat nb_record nb_report; do
	miss=
	for o in $("$B/$u" --help 2>&1 | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
		[ "$o" = --help ] && continue
		sed 's/\\-/-/g' "$man/$u.1" "$man/nb_schedule.1" | grep -qF -- "$o" || miss="$miss $o"
	done
	n=$((n + 1))
	if [ -f "$man/$u.1" ] && [ -z "$miss" ]; then
		echo "ok $n - man/$u.1 documents every option $u --help names"
	else
		echo "not ok $n - man/$u.1 documents every option $u --help names (missing:$miss)"
	fi
done
for u in nb_encode nb_decode nb_schedule; do
	t "$u --help" 0 "usage: $u" "$B/$u" --help
	t "$u without arguments: usage, exit 2" 2 "usage: $u" "$B/$u"
	t "$u --bogus: exit 2" 2 "unknown option" "$B/$u" --bogus
done
t "nb_encode: 1stL_cache_load_miss_retired, seed 003 values (user+kernel)" 0 "perfex 0x0003b000/0x1200020c@0x8000000c" \
	"$B/nb_encode" --dom=all 1stL_cache_load_miss_retired
t "nb_encode: PEBS MSRs" 0 "IA32_PEBS_ENABLE msr 0x3f1 = 0x01000001" "$B/nb_encode" 1stL_cache_load_miss_retired
t "nb_encode --perf: kernel raw config with metric index" 0 "perf raw config 0x4a0002050003b001" \
	"$B/nb_encode" --perf 1stL_cache_load_miss_retired
t "nb_encode: Memory_loads helper uop_type" 0 "helper ESCR RAT_ESCR0 msr 0x3bc = 0x04000404" "$B/nb_encode" Memory_loads
t "nb_encode: thread 1 uses T1 bits" 0 "= 0x12000201" "$B/nb_encode" --thread=1 1stL_cache_load_miss_retired
t "nb_encode: cascaded pair: the alternate's CCCR (Cascade, Enable clear)" 0 \
	"CCCR IQ_CCCR5 msr 0x371 = 0x40038000" "$B/nb_encode" instr_retired:NBOGUSNTAG:cascade
t "nb_encode --perf: cascade has no perf raw config" 0 "no CCCR Cascade bit" \
	"$B/nb_encode" --perf instr_retired:NBOGUSNTAG:cascade
t "nb_encode: unknown event: exit 1" 1 "unknown" "$B/nb_encode" no_such_event
t "nb_encode: conflict: exit 1, names both" 1 "DTLB_store_miss_retired" "$B/nb_encode" 1stL_cache_load_miss_retired DTLB_store_miss_retired
t "nb_encode --model=abc: unknown model, exit 3, lists the names" 3 "unknown model 'abc'.*prescott, cedarmill, xeonmp" \
	"$B/nb_encode" --model=abc 1stL_cache_load_miss_retired
for u in nb_encode nb_schedule; do
	t "$u --model=9: unknown model, exit 3" 3 "unknown model '9'" "$B/$u" --model=9 instr_retired:NBOGUSNTAG
	t "$u --model=5: no NetBurst model 5, exit 3" 3 "unknown model '5'" "$B/$u" --model=5 instr_retired:NBOGUSNTAG
	for m in prescott northwood willamette cedarmill xeonmp PRESCOTT 3; do
		t "$u --model=$m accepted (nbsim's names)" 0 "IQ_\|counter" "$B/$u" --model=$m instr_retired:NBOGUSNTAG
	done
	t "$u --model prescott (getopt_long: a separate value)" 0 "IQ_\|counter" "$B/$u" --model prescott instr_retired:NBOGUSNTAG
	t "$u --mod=xeonmp (getopt_long: an unambiguous prefix)" 0 "IQ_\|counter" "$B/$u" --mod=xeonmp instr_retired:NBOGUSNTAG
	t "$u --model: a value is needed, exit 2" 2 "needs a value" "$B/$u" --model
	t "$u options after the events" 0 "IQ_\|counter" "$B/$u" instr_retired:NBOGUSNTAG --model=northwood
done
t "nb_decode --cccr without value: exit 2" 2 "needs a value" "$B/nb_decode" --cccr
t "nb_decode --counter 12 (separate value)" 0 "uop_type:TAGLOADS" "$B/nb_decode" --cccr 0x35000 --escr 0x04000404 --counter 12
# one default model: Prescott, as nbsim (instr_completed exists on models 3, 4, 6 only)
t "default model is Prescott: instr_completed (models 3,4,6) is accepted" 0 "instr_completed" \
	"$B/nb_schedule" instr_completed:NBOGUS
t "--model=northwood: instr_completed refused, naming where it exists" 1 "it exists on prescott, cedarmill" \
	"$B/nb_schedule" --model=northwood instr_completed:NBOGUS
t "--model=xeonmp has the L3 masks" 0 "BSQ_cache_reference" "$B/nb_schedule" --model=xeonmp BSQ_cache_reference:RD_3rdL_MISS
t "default model has no L3: RD_3rdL_MISS refused" 1 "it exists on xeonmp" "$B/nb_schedule" BSQ_cache_reference:RD_3rdL_MISS
# presets: nb_encode and nb_schedule --partition take them as nb_schedule does
t "nb_encode PAPI_TOT_INS: the preset's mapping encoded" 0 "PAPI_TOT_INS = instr_retired:NBOGUSNTAG:NBOGUSTAG" \
	"$B/nb_encode" PAPI_TOT_INS
t "nb_encode PAPI_FP_OPS: both terms with their ESCR/CCCR" 0 "scalar_DP_retired" "$B/nb_encode" PAPI_FP_OPS
t "nb_encode PAPI_BR_MSP beside PAPI_TOT_INS and uops_retired: alternative 2" 0 "PAPI_BR_MSP = branch_retired:MMNM:MMTM" \
	"$B/nb_encode" PAPI_TOT_INS uops_retired:NBOGUS PAPI_BR_MSP
t "nb_encode PAPI_L1_DCM PAPI_L2_DCM: conflict, exit 1" 1 "IA32_PEBS_ENABLE" "$B/nb_encode" PAPI_L1_DCM PAPI_L2_DCM
t "nb_encode PAPI_NOPE: unknown preset, exit 1" 1 "unknown\|PAPI_NOPE" "$B/nb_encode" PAPI_NOPE
t "nb_encode PAPI_L3_TCM on Prescott: exit 1" 1 "no alternative this CPU model can count" "$B/nb_encode" PAPI_L3_TCM
t "nb_schedule --partition with presets: 2 runs" 0 "2 runs" "$B/nb_schedule" --partition PAPI_L1_DCM PAPI_L2_DCM PAPI_TOT_INS
t "nb_schedule --partition with presets: the replay presets in separate runs" 0 "run 2: PAPI_L2_DCM" \
	"$B/nb_schedule" --partition PAPI_L1_DCM PAPI_L2_DCM PAPI_TOT_INS
t "nb_schedule --partition: presets and events mixed" 0 "run 1: PAPI_LD_INS instr_retired:NBOGUSNTAG" \
	"$B/nb_schedule" --partition PAPI_LD_INS instr_retired:NBOGUSNTAG PAPI_SR_INS
t "nb_decode: seed 003 1stL (perfex string) with PEBS MSRs" 0 "replay_event:NBOGUS.*CRU_ESCR2 (IQ_COUNTER0) metric=1stL_cache_load_miss_retired" \
	"$B/nb_decode" --pebs-enable=0x01000001 --matrix-vert=1 0x0003B000/0x1200020C@0x8000000C
t "nb_decode: seed 003 front_end_event" 0 "front_end_event:NBOGUS.*CRU_ESCR3 (IQ_COUNTER3)" "$B/nb_decode" 0x0003B000/0x10000205@0x8000000F
t "nb_decode: seed 003 execution_event" 0 "execution_event:NBOGUS0" "$B/nb_decode" 0x0003B000/0x18000205@0x8000000C
t "nb_decode: --cccr/--escr/--counter" 0 "uop_type:TAGLOADS.*RAT_ESCR0" "$B/nb_decode" --cccr=0x35000 --escr=0x04000404 --counter=12
t "nb_decode: seed 003's x87_FP_uop line decodes to what it encodes (packed_DP_uop, tag)" 0 "packed_DP_uop.*tag=0x1" \
	"$B/nb_decode" 0x00033000/0x18008035@0x80000008
t "nb_decode: reserved CCCR bits: exit 1" 1 "reserved" "$B/nb_decode" 0x1/0x1200020C@12
t "nb_decode: no ESCR with that select on the counter: exit 1" 1 "no ESCR with select 7" "$B/nb_decode" 0x0003F000/0x1200020C@12
t "nb_decode: malformed: exit 1" 1 "expected" "$B/nb_decode" 0x0003B000
t "nb_decode: partial --cccr: exit 2" 2 "go together" "$B/nb_decode" --cccr=1
t "nb_schedule: places metrics with helpers" 0 "helper of Memory_loads" "$B/nb_schedule" Memory_loads instr_retired:NBOGUSNTAG
t "nb_schedule: conflict names the ESCRs" 1 "CRU_ESCR2 or CRU_ESCR3" "$B/nb_schedule" packed_SP_retired scalar_DP_retired 1stL_cache_load_miss_retired
t "nb_schedule: sibling holds TC_ESCR0 and TC_ESCR1" 1 "other logical processor" "$B/nb_schedule" --busy-escr=TC_ESCR0 --busy-escr=TC_ESCR1 TC_deliver_mode:DD
t "nb_schedule: --busy-escr unknown: exit 2" 2 "no ESCR named" "$B/nb_schedule" --busy-escr=NOPE TC_deliver_mode:DD
t "nb_schedule --partition: 4 runs, minimum" 0 "4 runs (minimum)" "$B/nb_schedule" --partition packed_SP_retired scalar_DP_retired X87_FP_retired \
	1stL_cache_load_miss_retired DTLB_store_miss_retired Memory_loads Memory_stores BSQ_allocation:REQ_TYPE0 BSQ_allocation:REQ_TYPE1
t "nb_schedule --partition: one event set fits one run" 0 "1 run (minimum)" "$B/nb_schedule" --partition TC_deliver_mode:DD instr_retired:NBOGUSNTAG
# libpfm4's execution-tagging idiom (TAGn: TagEnable bit 4, TagValue bits 5-8
# [SDM Fig. 18-43]); 0x09000054 = select 4 (x87_FP_uop) << 25 | ALL (mask bit
# 15 = ESCR bit 24) | TagValue 2 << 5 | TagEnable | T0_USR
t "nb_schedule: x87_FP_uop:ALL:TAG1 placed with its TagValue as given" 0 \
	"x87_FP_uop:ALL:TAG1 *FIRM_ESCR[01] FLAME_COUNTER[0-3] TagEnable TagValue 0x2" \
	"$B/nb_schedule" x87_FP_uop:ALL:TAG1 execution_event:NBOGUS1
t "nb_schedule: PAPI's FP_OPS idiom (two upstream events, TAG1)" 0 "scalar_SP_uop:ALL:TAG1 .*TagValue 0x2" \
	"$B/nb_schedule" execution_event:nbogus1 x87_FP_uop:ALL:TAG1 scalar_SP_uop:ALL:TAG1
t "nb_schedule: an execution metric beside TAG0 takes tag bit 1" 0 "X87_FP_retired .* tag 1" \
	"$B/nb_schedule" x87_FP_uop:ALL:TAG0 X87_FP_retired execution_event:NBOGUS0
t "nb_schedule: overlapping tag values refused" 1 "share bits but differ" \
	"$B/nb_schedule" x87_FP_uop:ALL:TAG1 scalar_SP_uop:ALL:TAG0:TAG1
t "nb_schedule: TAG1 counted by NBOGUS0 refused, naming NBOGUS1" 1 "count them with execution_event:NBOGUS1" \
	"$B/nb_schedule" x87_FP_uop:ALL:TAG1 execution_event:NBOGUS0
t "nb_schedule --partition: the mispairing is refused, not split into runs" 1 "TagValue 0x2" \
	"$B/nb_schedule" --partition x87_FP_uop:ALL:TAG1 execution_event:NBOGUS0
t "nb_schedule --partition: a TAGn event stays in its execution_event's run" 0 \
	"run 1: x87_FP_uop:ALL:TAG1 execution_event:NBOGUS1 scalar_SP_uop:ALL:TAG1" \
	"$B/nb_schedule" --partition x87_FP_uop:ALL:TAG1 execution_event:NBOGUS1 X87_FP_retired packed_SP_retired scalar_SP_uop:ALL:TAG1
t "nb_encode: x87_FP_uop:ALL:TAG1: TagEnable and TagValue 2 in the ESCR" 0 "ESCR FIRM_ESCR[01] msr 0x3a[45] = 0x09000054" \
	"$B/nb_encode" x87_FP_uop:ALL:TAG1 execution_event:NBOGUS1
t "nb_decode: the ESCR decodes back to libpfm4's TAG1" 0 "x87_FP_uop:ALL:TAG1:u=1:k=0 tag=0x2" "$B/nb_decode" 0x00033000/0x09000054@8
echo "1..$n"
