#!/bin/bash
# nbsim - run a program on a simulated Intel NetBurst (Pentium 4) CPU.
#
# Finds the nbsim valgrind tool next to this script (build tree) or in
# ../lib/nbsim (installed), builds a private VALGRIND_LIB directory that
# holds links to the system valgrind's files plus the tool, and runs
# valgrind --tool=nbsim.
#
# Environment: NBSIM_TOOL (tool executable), NBSIM_VALGRIND (valgrind
# launcher), NBSIM_VALGRIND_LIBEXEC (the system valgrind's libexec dir).
set -u

me=nbsim
models="willamette northwood prescott cedarmill xeonmp"

usage() {
	cat <<EOF
usage: nbsim [--model=NAME] [--ht=yes|no] [valgrind options] [--] program [args]

Runs an x86-64 program on nbsim, a valgrind model of an Intel NetBurst CPU
(CPUID family 15) and its performance-monitoring unit.

  --model=NAME   willamette (model 1), northwood (model 2),
                 prescott (model 3, EM64T; the default), cedarmill (model 6),
                 xeonmp (Gallatin Xeon MP: model 2 with a 2 MB L3).
                 Guests are x86-64 programs on every model: CPUID reports
                 long mode even on the 32-bit-only parts.
  --ht=yes|no    model Hyper-Threading (default: no).
  --help         this text.

The model's options (passed to the nbsim tool; a bad value is refused
with the values that exist):
  --nbsim-stats=yes|no       print signal and PMI totals at exit [no]
  --nbsim-warn-unmodelled=yes|no  warn once when a counter is programmed
                             for an event the model does not produce [yes]
  --nbsim-list-events=yes|no print every event:MASK the model produces
                             (lines 'nbsim-event EVENT:MASK') and exit [no]
  --nbsim-mem-timing=auto|yes|no  loads take the cache model's latencies
                             in cycles (counting cycles runs it); no: every
                             load hits the L1D (auto: old name of yes) [yes]
  --nbsim-clock=sampled|model|walk|fast  cycles from the timing model
                             (dependencies, units, window) run on a sample
                             of the superblock runs, learned costs on the
                             others (about 1% off the model's cycles, 2% on
                             short programs; deterministic; every run under
                             --ht=yes) / model: the model on every run (2-6x
                             slower) / walk: the model without replay of
                             recorded schedules (the reference: same cycles
                             as model, slower still) / fast: uops retire 3
                             per cycle, plus miss latencies and mispredict
                             penalties (cheap, not faithful) [sampled]
  --nbsim-sample=N           sampled clock: superblock runs skipped between
                             two samples, on average, at most (1-1000000;
                             fewer: more exact, slower) [8000]; refused with
                             another clock
  --nbsim-sample-forget=N    sampled clock: forget the costs learned after N
                             superblock runs without a PMU access, and learn
                             them again (0: never; fewer: more exact where a
                             program's phases change, slower) [4194304];
                             refused with another clock
  --nbsim-time=host|simulated  what the program's own clocks read (RDTSC,
                             clock_gettime, gettimeofday, clock, getrusage,
                             CPU-time itimers): the host's, or the simulated
                             part's time, its cycles at the model's clock
                             (docs/simulated-time.md) [simulated]
  --nbsim-random=seeded|host  the kernel's random bytes (getrandom,
                             /dev/urandom, /dev/random): from a generator
                             seeded by --nbsim-seed, the same in every run
                             (Python's hash seed, temporary names), or the
                             host's [seeded]
  --nbsim-seed=N             that generator's seed (0 to 2^63-1) [0]
  --nbsim-step-derive=lazy|cycle  step mode (a per-cycle filter): fold
                             the raw counts into the signals only where a
                             cycle needs it / cycle: at every retirement
                             cycle (the reference: same counts, slower)
                             [lazy]
  --nbsim-cache=netburst|cachegrind  cache policies; cachegrind: write-
                             allocate L1D, 64-byte L2 lines (a test mode)
                             [netburst]
  --nbsim-pmu-ctx=thread|cpu counters per guest thread, saved and restored
                             at thread switches as the kernel does / per
                             logical processor, shared by its threads [thread]
  --nbsim-ht-place=fixed|migrate  with --ht=yes: a thread stays on the
                             LP it was created on (t-1 mod 2) / new threads
                             go to the LP with fewer, and a thread's exit
                             that leaves its LP 2 short moves the other LP's
                             highest ThreadId there; its counts follow it
                             (--nbsim-stats=yes lists the moves) [fixed]
  --nbsim-lockstep=yes|no    threads run in an order and for times that
                             simulated time decides, the LPs' clocks within
                             --nbsim-lockstep-bound of each other / as
                             valgrind and the host schedule them [yes]
  --nbsim-lockstep-bound=N   the LPs' clocks' lead, in cycles (instructions
                             while nothing counts cycles) (1000-100000000;
                             fewer: closer, each turn a host thread switch)
                             [50000]
  --nbsim-lockstep-pause=yes|no  under the lockstep, a PAUSE decides in
                             place whether its thread runs on / goes back
                             to valgrind's scheduler to ask (the same
                             counts; a check) [yes]
  --nbsim-smt-clock=sampled|walk  with --ht=yes, while both LPs run: the
                             sampled clock, its walked runs sharing the
                             package / the model on every run [sampled]
  --nbsim-exact-ir=yes|no    keep every register update, so that VEX's
                             optimiser removes no load and no flags [yes]
  --nbsim-cold=yes|no        cold code (before a counter is enabled, with
                             simulated time; a superblock's first 2048 runs)
                             calls the cache model per access (cheaper to
                             translate; the same counts) [yes]
  --nbsim-program=FILE       MSR writes applied before the guest's first
                             instruction (nb_stat writes it)
  --nbsim-counts=FILE        at exit, the counters, totals and a row per
                             thread, to FILE (%p: the pid) (nb_stat reads it)
  --nbsim-samples=FILE       take the overflow interrupts and PEBS records of
                             the counters --nbsim-program armed, and write a
                             sample line each to FILE (%p: the pid) (nb_record)
  --nbsim-sample-stack=N     with --nbsim-samples, the N innermost callers of
                             each sample (0-64) [0]
  --nbsim-trace-forked=yes|no  does a forked child's execve stay under
                             nbsim? no: only the program's own (nb_stat
                             without --follow) [yes]
  --nbsim-isa=model|host     an instruction the model lacks (AVX, SSSE3,
                             POPCNT..., SSE3 before Prescott) raises #UD:
                             SIGILL as on the hardware / host: runs as the
                             host runs it, with a warning [model]
  --nbsim-pmi-latency=N      cycles from the overflowing instruction's
                             retirement to its PMI (the IEBS skid, 0-100000)
                             [the model's: 59 Northwood, 91 Prescott]
  --nbsim-pmi-sync=yes|no    the PMI then waits for the local APIC's next
                             bus-clock edge (the skid's spread) [yes]
  --aslr=yes|no              the host's address-space randomisation (the
                             vDSO's and stack's addresses in the program's
                             /proc/self/maps) / off, so that a program that
                             reads its maps (PAPI does) runs the same
                             instructions every run [no]
  --perf-paranoid=N          the emulated perf_event_paranoid (-1..3) [2]
  --msr-driver=yes|no        the emulated msr driver is loaded [yes]

Other options starting with - go to valgrind (e.g. -v, --trace-children=no,
--fair-sched=no).  The kernel is not simulated: OS-mode counts are zero.
EOF
}

# A message quotes the command line and the environment: control bytes
# are shown as '?' (an escape sequence in an argument would drive the
# terminal).
die() {
	local rc=$1 msg
	shift
	msg="$*"
	printf '%s: %s\n' "$me" "${msg//[[:cntrl:]]/?}" >&2
	exit "$rc"
}

# SIGINT, SIGTERM or SIGHUP while this script waits for one of its helper
# commands (readlink, find, ln, mv) must end it, as it ends the
# program once valgrind runs.  For SIGINT bash waits for the helper and,
# when the helper did not die of it (it never got it: the signal was sent
# to this process alone), goes on as if the helper had handled it: the
# program then ran, never signalled (measured: a bash script signalled in
# its `sleep 2` printed the next line and exited 0; with these traps it
# died of SIGINT, 130).  The traps end the script by the signal once the
# helper is done; exec(2) resets them for valgrind.  A signal ignored at
# entry stays ignored (bash does not trap those).
for s in INT TERM HUP; do
	trap "trap - $s; kill -s $s \$\$" "$s"
done

# (each external command costs a fork and an exec, about a millisecond of
# CPU: the start-up below uses bash's own where it can, and the program's
# CPU time under nbsim includes this script's)
if [ -L "$0" ]; then
	self=$(readlink -f -- "$0" 2>/dev/null) || self=$0
else
	self=$0
fi
case $self in
*/*) here=$(cd -P -- "${self%/*}" 2>/dev/null && pwd) || here=${self%/*} ;;
*) here=$(pwd -P) ;;
esac

model=prescott
ht=no
aslr=no
vgopts=()
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help)
		usage
		exit 0
		;;
	--model=*)
		model=${1#--model=}
		;;
	--model)
		die 2 "use --model=NAME"
		;;
	--ht=yes | --ht=no)
		ht=${1#--ht=}
		;;
	--ht=*)
		die 2 "bad value for --ht: '${1#--ht=}' (yes or no)"
		;;
	--aslr=yes | --aslr=no)
		aslr=${1#--aslr=}
		;;
	--aslr=* | --aslr)
		die 2 "bad value for --aslr: '${1#--aslr=}' (yes or no)"
		;;
	--tool=*)
		die 2 "--tool is fixed to nbsim"
		;;
	--)
		shift
		break
		;;
	-*)
		vgopts+=("$1")
		;;
	*)
		break
		;;
	esac
	shift
done

case " $models " in
*" $model "*) ;;
*) die 2 "unknown model '$model' (known: ${models// /, })" ;;
esac

[ $# -gt 0 ] || {
	usage >&2
	exit 2
}
prog=$1
case $prog in
*/*) path=$prog ;;
*) path=$(type -P -- "$prog") || path= ;;
esac
[ -n "$path" ] && [ -e "$path" ] || die 127 "$prog: no such file or program"
[ -d "$path" ] && die 126 "$prog: is a directory"
[ -f "$path" ] && [ -x "$path" ] || die 126 "$prog: not an executable file (permission denied)"

tool=${NBSIM_TOOL:-}
if [ -z "$tool" ]; then
	for c in "$here/nbsim-amd64-linux" "$here/../lib/nbsim/nbsim-amd64-linux"; do
		if [ -x "$c" ]; then
			tool=$c
			[ -L "$c" ] || [[ $c == */../* ]] && tool=$(readlink -f -- "$c")
			break
		fi
	done
fi
[ -n "$tool" ] && [ -x "$tool" ] || die 1 "cannot find the nbsim tool (nbsim-amd64-linux) near $here"

# nbsim's own failures exit 1 (a launcher's status, as valgrind's): never
# 126 or 127, which say that PROGRAM cannot be run or is not there.
valgrind=${NBSIM_VALGRIND:-$(type -P valgrind)} || valgrind=
[ -n "$valgrind" ] || die 1 "valgrind not found in PATH"
[ -f "$valgrind" ] && [ -x "$valgrind" ] ||
	die 1 "valgrind '$valgrind' (NBSIM_VALGRIND or PATH): not an executable file"

libexec=${NBSIM_VALGRIND_LIBEXEC:-}
if [ -z "$libexec" ]; then
	for d in /usr/libexec/valgrind /usr/lib/x86_64-linux-gnu/valgrind \
		/usr/lib/valgrind /usr/local/libexec/valgrind /usr/local/lib/valgrind; do
		if [ -e "$d/vgpreload_core-amd64-linux.so" ]; then
			libexec=$d
			break
		fi
	done
fi
[ -n "$libexec" ] && [ -e "$libexec/vgpreload_core-amd64-linux.so" ] ||
	die 1 "cannot find valgrind's libexec directory (set NBSIM_VALGRIND_LIBEXEC)"

# Private VALGRIND_LIB: one per user and (tool, valgrind) pair, reused.
# Valgrind puts VALGRIND_LIB's preload libraries into LD_PRELOAD, which
# ld.so splits at spaces and colons (ld.so(8)): under a directory with
# such a name the libraries are dropped ("cannot be preloaded"), and with
# them the emulated kernel, and the counts change in silence.  So the
# first of XDG_RUNTIME_DIR, TMPDIR and /tmp that is an absolute path of
# plain characters (letters, digits, / . _ + -: none that ld.so or a
# shell splits or expands) and a writable directory is used; TMPDIR
# itself is still the guest's.
plain_dir() {
	case $1 in
	/*) ;;
	*) return 1 ;;
	esac
	case $1 in
	*[!A-Za-z0-9/._+-]*) return 1 ;;
	esac
	[ -d "$1" ] && [ -w "$1" ]
}
base=
for d in "${XDG_RUNTIME_DIR-}" "${TMPDIR-}" /tmp; do
	if [ -n "$d" ] && plain_dir "$d"; then
		base=${d%/}/nbsim-$EUID
		break
	fi
done
[ -n "$base" ] || die 1 "no directory for valgrind's private library links: XDG_RUNTIME_DIR, TMPDIR and /tmp are not writable directories with plain names"
# (ten digits whatever the sum: the directory's name is in every guest's
# LD_PRELOAD and VALGRIND_LIB, and the environment's size moves the
# guest's stack, hence its cache misses and the samples: a tool whose
# path summed to nine digits gave the guest 3 bytes less of environment
# than one whose path summed to ten)
# The key: 32-bit FNV-1a of the two paths (in bash: no cksum process).
fnv() {
	local s=$1 i c h=2166136261
	for ((i = 0; i < ${#s}; i++)); do
		printf -v c '%d' "'${s:i:1}"
		h=$(((h ^ (c & 255)) * 16777619 & 4294967295))
	done
	printf -v key '%010u' "$h"
}
fnv "$tool"$'\n'"$libexec"
vglib=$base/lib-$key
[ -d "$vglib" ] || mkdir -p -m 700 -- "$base" "$vglib" 2>/dev/null || die 1 "cannot create $vglib"
[ -O "$base" ] && [ -O "$vglib" ] || die 1 "$base is not owned by you"
# Links are replaced by rename(2), which is atomic: nbsim instances started
# at the same time never see a name missing (ln -sf unlinks first).
# The directory's .paths holds the tool's and libexec's paths its links
# were made for: when they are this run's, a link there points where it
# should (the key names the pair; .paths rules out a collision of keys),
# and only a missing one is made.  Otherwise the existing links are read
# with one find(1), not a readlink per file (that cost ~0.4 s per start).
declare -A have=()
paths=$tool$'\n'$libexec
mine= old=
# (read's status is 1 at the end of a file without a NUL: not asked)
{ IFS= read -r -d '' old <"$vglib/.paths"; } 2>/dev/null
[ "$old" = "$paths" ] && mine=1
if [ -z "$mine" ]; then
	while IFS= read -r -d '' l && IFS= read -r -d '' t; do
		have[$l]=$t
	done < <(find "$vglib" -mindepth 1 -maxdepth 1 -type l -printf '%f\0%l\0' 2>/dev/null)
fi
link() { # target name
	if [ -n "$mine" ]; then
		[ -L "$vglib/$2" ] && return
	else
		[ "${have[$2]-}" = "$1" ] && return
	fi
	ln -sfn -- "$1" "$vglib/.$2.$$" && mv -Tf -- "$vglib/.$2.$$" "$vglib/$2" ||
		die 1 "cannot link $1 into $vglib"
}
for f in "$libexec"/*; do
	b=${f##*/}
	case $b in nbsim-*) continue ;; esac
	link "$f" "$b"
done
link "$tool" nbsim-amd64-linux
# The tool's preload library (the emulated kernel's wrappers,
# vg_preload_nbsim.c): valgrind loads vgpreload_<tool>-<platform>.so from
# VALGRIND_LIB into every guest when it is there.
preload=${tool%/*}/vgpreload_nbsim-amd64-linux.so
[ -e "$preload" ] || die 1 "cannot find the nbsim preload library $preload"
link "$preload" vgpreload_nbsim-amd64-linux.so
# (written whole, then renamed: a reader sees the old or the new)
if [ -z "$mine" ]; then
	printf '%s' "$paths" >"$vglib/.paths.$$" && mv -f -- "$vglib/.paths.$$" "$vglib/.paths" ||
		die 1 "cannot write $vglib/.paths"
fi

export VALGRIND_LIB=$vglib
# Children (fork+exec, system()) run on the simulated CPU too, as they would
# on a real NetBurst; --trace-children=no overrides.  Guest threads share one
# simulated CPU; --fair-sched=yes hands it round in turn, so a thread cannot
# starve the others when the host is loaded (PAPI's ctests/thrspecific needs
# all threads to have run within one second); --fair-sched=no overrides.
# The simulation is deterministic: what the program reads of its own
# process must not change from run to run either.  PAPI (and any program
# that lists its mappings) parses /proc/self/maps, which shows the host's
# randomised vDSO, vvar and stack addresses and valgrind's gdbserver file
# (named by the pid, a fresh inode each run): so valgrind runs with the
# host's randomisation off (setarch -R: personality ADDR_NO_RANDOMIZE,
# kept across the children's execs, as gdb and rr run their programs) and
# without the gdbserver unless asked for (--vgdb=yes).
run=("$valgrind")
if [ "${aslr:-no}" = no ]; then
	setarch=$(type -P setarch) || setarch=
	# (whether personality(2) works is asked once per directory:
	# .setarch-ok; HOSTTYPE is bash's uname -m)
	[ -n "$setarch" ] && { [ -e "$vglib/.setarch-ok" ] || { "$setarch" "$HOSTTYPE" -R true 2>/dev/null &&
		: >"$vglib/.setarch-ok"; }; } ||
		die 1 "--aslr=no needs setarch (util-linux) and the personality(2) system call; --aslr=yes runs without"
	run=("$setarch" "$HOSTTYPE" -R "$valgrind")
fi
shopt -s execfail
exec "${run[@]}" --tool=nbsim -q --trace-children=yes --fair-sched=yes --vgdb=no --model="$model" --ht="$ht" "${vgopts[@]}" -- "$@"
die 1 "cannot run valgrind '$valgrind'"
