# p4netburst top-level build.
#   make            build PAPI 7.0.0 with the p4netburst component, nbsim, utils, tests
#   make stat       nb_stat: count sort(1) on a generated file on the simulated NetBurst
#   make demo       count PAPI presets for a matrix multiply on the simulated NetBurst
#   make check      run the test suite (TAP, under prove; TESTS=tests/api/t_x.t for some)
#   make check-long the same with the PAPI tests that take minutes under nbsim
#   make bench      benchmarks (ratios measured in one run)
#   make fuzz       libFuzzer on the event-name parser (FUZZ_SECONDS=600; needs clang)
#   make install PREFIX=DIR
# The first make runs ./configure (which fetches PAPI's source) if needed.

# The first rule below is config.mk's: without this, a make that had to run
# configure would stop there.
.DEFAULT_GOAL := all

include config.mk

# (the folder: a patch removed reconfigures too)
config.mk: configure Rules.p4netburst patches $(wildcard patches/*.patch)
	./configure

CC ?= cc
CFLAGS_NB = -std=gnu11 -O2 -g -Wall -Wextra -Werror
JOBS ?= 2
T = $(BUILDDIR)/tests
PAPI_INC = -I$(PAPI_SRC) -I$(PAPI_SRC)/testlib
PAPI_LIB = $(PAPI_SRC)/libpapi.a
NBSIM = $(BUILDDIR)/sim/nbsim

.PHONY: all gen papi sim tests utils demo stat check check-long build-parallel bench install clean distclean fuzz

all: papi sim tests utils $(BUILDDIR)/matmul

gen: $(GENDIR)/nb_tables.c

$(GENDIR)/nb_tables.c: native_events/gen_tables.pl $(wildcard native_events/*.txt)
	mkdir -p $(GENDIR)
	perl native_events/gen_tables.pl native_events $(GENDIR)

# PAPI (with our component) is rebuilt only when the component's sources,
# the generated tables or the configuration change: a stamp file, so that a
# make with nothing to do does not relink every test program.  The build
# says what it does and where its log is, with progress (compiler runs).
PAPI_STAMP = $(BUILDDIR)/papi.stamp
PAPI_DEPS = $(wildcard components/p4netburst/*.c components/p4netburst/*.h) \
	native_events/nb_events.h sim/nbsim_client.h $(GENDIR)/nb_tables.c config.mk

papi: $(PAPI_STAMP)

# The stamp takes the time the build started (touched first, renamed at
# the end): a source changed while PAPI builds is newer than the stamp, so
# the next make builds it (a stamp touched at the end hid such a change).
# PAPI's make gets none of ours (MAKEFLAGS): `make check TESTS=...` passed
# TESTS down, and PAPI's own `tests: $(TESTS)` target then failed.
$(PAPI_STAMP): $(PAPI_DEPS)
	@touch $@.start
	@echo "Building PAPI $(notdir $(PAPI_TREE)) with the p4netburst component (the first time takes a few minutes);"
	@echo "  log: $(BUILDDIR)/papi-make.log"
	@{ env -u MAKEFLAGS -u MFLAGS $(MAKE) -C $(PAPI_SRC) -j$(JOBS) 2>&1; echo "papi-make-status $$?"; } | tee $(BUILDDIR)/papi-make.log | \
		awk '/^papi-make-status/ { st = $$2; next } \
		     / -c / { n++; if (n % 25 == 0) { printf "  PAPI: %d files compiled\n", n; fflush() } } \
		     END { exit st }' || \
		{ grep -v '^papi-make-status' $(BUILDDIR)/papi-make.log | tail -40; \
		  echo "PAPI build failed: see $(BUILDDIR)/papi-make.log"; exit 1; }
	@echo "  PAPI built: $(PAPI_LIB)"
	@mv -f $@.start $@

sim: gen
	$(MAKE) -C sim BUILD=$(BUILDDIR)/sim NBGEN=$(GENDIR)

# ---- our tests through the public PAPI API -----------------------------------
CTESTS = $(patsubst ctests/%.c,$(T)/%,$(wildcard ctests/*.c))

FTESTS = $(patsubst ftests/%.F90,$(T)/f_%,$(wildcard ftests/*.F90))

tests: $(CTESTS) $(FTESTS) $(T)/thread_counts_omp

# the OpenMP build of ctests/thread_counts.c (libgomp: Debian's gcc)
$(T)/thread_counts_omp: ctests/thread_counts.c ctests/nbtap.h ctests/nbdiff.h ctests/nbthreads.h sim/tests/tap.h $(PAPI_STAMP)
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) -fopenmp $(PAPI_INC) -Ictests -o $@ $< $(PAPI_LIB) -lpthread

$(T)/%: ctests/%.c $(wildcard ctests/*.h) sim/tests/tap.h $(PAPI_STAMP)
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) $(PAPI_INC) -Ictests -o $@ $< $(PAPI_LIB) -lpthread

# ---- the name parser alone: unit test and fuzz-corpus replay (make check) ----
# the scheduler's files (components/p4netburst/nb_sched_int.h lists them)
NB_SCHED_FILES = nb_sched.c nb_sched_base.c nb_sched_tags.c nb_sched_rules.c nb_sched_search.c nb_sched_fill.c nb_sched_explain.c
EVSEL_SRC = components/p4netburst/nb_evsel.c $(GENDIR)/nb_tables.c
EVSEL_DEPS = $(EVSEL_SRC) components/p4netburst/nb_evsel.h native_events/nb_events.h
EVSEL_INC = -Icomponents/p4netburst -Inative_events -I$(GENDIR) -Ictests
SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

tests: $(T)/evsel_unit $(T)/fuzz_replay

$(T)/evsel_unit: tests/unit/evsel_unit.c ctests/nbtap.h $(EVSEL_DEPS) sim/cpu/nb_cpu.c sim/cpu/nb_cpu.h
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) -O1 $(SAN) $(EVSEL_INC) -Isim/cpu -o $@ $< $(EVSEL_SRC) sim/cpu/nb_cpu.c

# ---- the msr and perf backends without hardware (make check) -------------------
BACKEND_SRC = $(addprefix components/p4netburst/,backend_regs.c backend_msr.c backend_perf.c \
	backend_cpuid.c nb_encode.c $(NB_SCHED_FILES) nb_evsel.c) $(GENDIR)/nb_tables.c
tests: $(T)/backend_unit

$(T)/backend_unit: tests/unit/backend_unit.c $(BACKEND_SRC) $(wildcard components/p4netburst/*.h)
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) -O1 $(SAN) $(EVSEL_INC) -Isim -o $@ $< $(BACKEND_SRC) -lpthread

# ---- nbsim's emulated kernel (sim/README.md "Emulated kernel") ----------------
# The kernel's P4 facts as C (native_events/gen_kernel.pl); the shared model of
# its policy (nb_linux_sched.c) for the tests, the bench and nb_schedule.
$(GENDIR)/nb_kp4.c: native_events/gen_kernel.pl native_events/kernel_p4.txt native_events/pmu.txt
	mkdir -p $(GENDIR)
	perl native_events/gen_kernel.pl native_events $(GENDIR)
KP4_SRC = components/p4netburst/nb_linux_sched.c $(GENDIR)/nb_kp4.c
tests: $(T)/kern_perf

$(T)/kern_perf: tests/kern/kern_perf.c $(KP4_SRC) components/p4netburst/nb_linux_sched.h ctests/nbtap.h sim/nbsim_client.h
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) -Icomponents/p4netburst -Inative_events -I$(GENDIR) -Isim -Ictests -o $@ tests/kern/kern_perf.c $(KP4_SRC)

tests: $(T)/kern_inherit
$(T)/kern_inherit: tests/kern/kern_inherit.c ctests/nbtap.h
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) -Ictests -o $@ tests/kern/kern_inherit.c -lpthread

tests: $(T)/perf_hot
$(T)/perf_hot: tests/kern/perf_hot.c
	@mkdir -p $(T)
	$(CC) -O1 -g -fno-omit-frame-pointer -fno-inline -o $@ tests/kern/perf_hot.c

tests: $(T)/kern_task
$(T)/kern_task: tests/kern/kern_task.c ctests/nbtap.h
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) -Ictests -o $@ tests/kern/kern_task.c

tests: $(T)/kern_exec
$(T)/kern_exec: tests/kern/kern_exec.c ctests/nbtap.h
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) -Ictests -o $@ tests/kern/kern_exec.c

# the TIME of the emulated driver's samples (tests/kern/t_kern_stime.t)
tests: $(T)/kern_stime
$(T)/kern_stime: tests/kern/kern_stime.c
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) -o $@ tests/kern/kern_stime.c
# the exec hand-off file and a pid reused (tests/kern/t_kern_exec_stale.t)
tests: $(T)/kern_stale
$(T)/kern_stale: tests/kern/kern_stale.c
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) -o $@ tests/kern/kern_stale.c
# the ptrace stop sequence (tests/kern/t_kern_ptrace.t)
tests: $(T)/kern_ptrace
$(T)/kern_ptrace: tests/kern/kern_ptrace.c ctests/nbtap.h
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) -Ictests -o $@ tests/kern/kern_ptrace.c

tests: $(T)/msr_signal
$(T)/msr_signal: tests/kern/msr_signal.c ctests/nbtap.h $(PAPI_STAMP)
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) $(PAPI_INC) -Ictests -Icomponents/p4netburst -Inative_events -I$(GENDIR) -Isim \
		-o $@ tests/kern/msr_signal.c $(PAPI_LIB) -lpthread

tests: $(T)/msr_restore
$(T)/msr_restore: tests/kern/msr_restore.c ctests/nbtap.h $(PAPI_STAMP)
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) $(PAPI_INC) -Ictests -Icomponents/p4netburst -Inative_events -I$(GENDIR) -Isim \
		-o $@ tests/kern/msr_restore.c $(PAPI_LIB) -lpthread

$(T)/fuzz_replay: fuzz/fuzz_evsel.c fuzz/replay_main.c $(EVSEL_DEPS)
	@mkdir -p $(T)
	$(CC) $(CFLAGS_NB) -O1 $(SAN) $(EVSEL_INC) -o $@ fuzz/fuzz_evsel.c fuzz/replay_main.c $(EVSEL_SRC)

# ---- fuzzing (not part of make check) ------------------------------------------
# The corpus grows in build/fuzz/corpus; the committed seeds are fuzz/corpus.
FUZZ_SECONDS ?= 600
FUZZ_CC ?= clang
FUZZ = $(BUILDDIR)/fuzz

fuzz: $(GENDIR)/nb_tables.c
	@command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz needs clang with libFuzzer: apt-get install -y clang libclang-rt-14-dev"; exit 1; }
	mkdir -p $(FUZZ)/corpus
	$(FUZZ_CC) -std=gnu11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $(EVSEL_INC) -o $(FUZZ)/fuzz_evsel fuzz/fuzz_evsel.c $(EVSEL_SRC)
	perl fuzz/mkdict.pl native_events > $(FUZZ)/names.dict
	cd $(FUZZ) && ./fuzz_evsel -max_total_time=$(FUZZ_SECONDS) -max_len=320 -dict=names.dict \
		-print_final_stats=1 corpus $(SRCDIR)/fuzz/corpus >fuzz.log 2>&1; st=$$?; \
		grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|SUMMARY|==[0-9]+==ERROR)' fuzz.log; \
		echo "fuzz: exit $$st, log $(FUZZ)/fuzz.log"; exit $$st

$(T)/f_%: ftests/%.F90 $(PAPI_STAMP)
	@mkdir -p $(T)/fmod
	gfortran -O1 -g -Wall -Werror -cpp -I$(PAPI_SRC) -J$(T)/fmod -o $@ $< $(PAPI_LIB)

# ---- nb_stat's test programs (tests/stat/t_nb_stat.t) --------------------------------
# Static assembly kernels without libc (exact counts), each also at twice its
# size (_2x: the difference method), and programs with threads, fork+exec,
# a read then a loop (readloop, dynamic: tests/kern/t_perf_tool.t),
# Fortran and MPI (mpich, installed by configure).
ST = $(T)/stat
STAT_KERNELS = $(patsubst tests/stat/%.S,%,$(wildcard tests/stat/k_*.S))
STAT_BINS = $(addprefix $(ST)/,$(STAT_KERNELS) $(addsuffix _2x,$(STAT_KERNELS)) \
	k_loop_exit7 threads forkexec readloop f_sum mpi_ranks)
tests: $(STAT_BINS)

# k_loop of 40 M instructions: perf record -F's period settles (t_perf_tool_record.t)
tests: $(ST)/k_loop_40m
$(ST)/k_loop_40m: tests/stat/k_loop.S
	@mkdir -p $(ST)
	$(CC) -nostdlib -static -DSCALE=20000 -o $@ $<

$(ST)/k_loop_exit7: tests/stat/k_loop.S
	@mkdir -p $(ST)
	$(CC) -nostdlib -static -DEXIT=7 -o $@ $<
$(ST)/%_2x: tests/stat/%.S
	@mkdir -p $(ST)
	$(CC) -nostdlib -static -DSCALE=2 -o $@ $<
$(ST)/k_%: tests/stat/k_%.S
	@mkdir -p $(ST)
	$(CC) -nostdlib -static -o $@ $<
$(ST)/threads: tests/stat/threads.c
	@mkdir -p $(ST)
	$(CC) $(CFLAGS_NB) -O1 -o $@ $< -lpthread
$(ST)/forkexec: tests/stat/forkexec.c
	@mkdir -p $(ST)
	$(CC) $(CFLAGS_NB) -o $@ $<
$(ST)/readloop: tests/stat/readloop.c
	@mkdir -p $(ST)
	$(CC) $(CFLAGS_NB) -O1 -o $@ $<
$(ST)/f_sum: tests/stat/f_sum.F90
	@mkdir -p $(ST)
	gfortran -O1 -Wall -Werror -o $@ $<
$(ST)/mpi_ranks: tests/stat/mpi_ranks.c
	@mkdir -p $(ST)
	mpicc.mpich -std=gnu11 -O1 -Wall -Wextra -Werror -o $@ $<

# ---- nb_record's test program (tests/record/t_nb_record.t) -----------------------------
# An ordinary C program with debug info (no client requests, no PAPI).
tests: $(T)/record/hotspot
$(T)/record/hotspot: tests/record/hotspot.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -o $@ $<
# two threads at once (nb_record --ht=yes)
tests: $(T)/record/ht2
$(T)/record/ht2: tests/record/ht2.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -o $@ $< -lpthread

# ---- the main job ------------------------------------------------------------
# Presets of every kind nbsim models (sim/README.md "Events"): instructions
# and cycles, branches (the branch model), tagged loads and stores, FP
# operations (execution tagging), L1D/L2 misses and DTLB misses (the cache
# and TLB models); the program puts them in as few runs as fit.
# DEMO_PRESETS= (empty) counts every preset the component offers.
DEMO_PRESETS ?= PAPI_TOT_INS PAPI_TOT_CYC PAPI_BR_INS PAPI_BR_TKN PAPI_BR_MSP \
	PAPI_LD_INS PAPI_SR_INS PAPI_FP_OPS PAPI_L1_DCM PAPI_L2_TCM PAPI_TLB_DM
$(BUILDDIR)/matmul: examples/matmul.c $(PAPI_STAMP)
	$(CC) $(CFLAGS_NB) $(PAPI_INC) -o $@ examples/matmul.c $(PAPI_LIB)

demo: all
	$(NBSIM) -- $(BUILDDIR)/matmul 96 $(DEMO_PRESETS)

# nb_stat on a real Debian program: sort(1) on a generated file of 20,000
# numbers, with the default event set (STAT_EVENTS=-e ... for others).
STAT_EVENTS ?=
stat: all
	seq 20000 | awk '{ print ($$1 * 7919) % 20011 }' > $(BUILDDIR)/stat-input.txt
	$(BUILDDIR)/utils/nb_stat $(STAT_EVENTS) -- sort -n -o $(BUILDDIR)/stat-sorted.txt $(BUILDDIR)/stat-input.txt

# ---- tests ---------------------------------------------------------------------
export NB_SRC := $(SRCDIR)
export NB_BUILD := $(BUILDDIR)
export NB_PAPI_SRC := $(PAPI_SRC)
export NB_GEN := $(GENDIR)
export NBGEN := $(GENDIR)
export NB_PAPI_TREE := $(PAPI_TREE)
export LIBPFM4_SRC
export NBSIM
export NBSIM_TESTBIN := $(BUILDDIR)/sim/tests
export NB_UTILS_BIN := $(T)/san-utils

# What make check runs (tests/README.md): the .t files of tests/*/, and
# the unit tests' binaries and nbsim's guest drivers as they are (prove
# runs an executable and reads its TAP: no wrapper file per binary).
UNIT_BINS = $(patsubst $(CURDIR)/%,%,$(T)/evsel_unit $(T)/backend_unit \
	$(patsubst sim/tests/unit/%.c,$(NBSIM_TESTBIN)/%,$(sort $(wildcard sim/tests/unit/t_*.c))))
# nbsim's guest drivers that make check runs; make -C sim check runs them
# all (t_busev, t_iebs, t_isa, t_mob and the Prescott and HT variants
# beside these are nbsim's own)
GUEST_DRIVERS = $(addprefix sim/tests/guest/,t_nbsim_cli.sh t_cachegrind.sh t_exact.sh \
	t_fpassist.sh t_measured.sh t_memev.sh t_pebs.sh t_pmi.sh t_pmi_ht.sh t_replay.sh \
	t_sampled.sh t_smt_ht.sh t_smt_lock.sh t_smt_sampled.sh t_step.sh t_timing.sh t_wc.sh \
	t_wc_prescott.sh t_putdrop.sh)
ALL_TESTS = $(sort $(wildcard tests/*/*.t) $(GUEST_DRIVERS) $(UNIT_BINS))

# The files that cost the most CPU start first (tests/slow-first.txt):
# with $(JOBS) at once in name order a long file that starts late ran
# alone at the end while the other core idled.
# TESTS=tests/api/t_foo.t narrows the run to some files (a unit test by
# its binary, build/sim/tests/t_bus, or by its source, sim/tests/unit/t_bus.c)
SLOW_FIRST = $(filter $(ALL_TESTS),$(shell sed -e 's/\#.*//' tests/slow-first.txt))
TESTS ?= $(SLOW_FIRST) $(filter-out $(SLOW_FIRST),$(ALL_TESTS))
RUN_TESTS = $(patsubst $(CURDIR)/%,%,$(patsubst sim/tests/unit/%.c,$(NBSIM_TESTBIN)/%,$(patsubst tests/unit/%_unit.c,$(T)/%_unit,$(TESTS))))

# The build runs $(JOBS) jobs at once (make check from a clean clone built
# one file at a time: CI's second core idled for minutes); PAPI's own make
# already had -j$(JOBS).  A sub-make, so that make check needs no -j of
# its own.
build-parallel:
	@$(MAKE) --no-print-directory -j$(JOBS) all

check: build-parallel
	prove -j$(JOBS) $(RUN_TESTS)

# make check with the PAPI tests that take minutes under nbsim (reported
# as skips by make check; tests/lib/PapiSuite.pm "long")
check-long: build-parallel
	NB_CHECK_LONG=1 prove -j$(JOBS) $(RUN_TESTS)

# Pure modules (no PAPI): the scheduler bench and the nb_* utilities.
NB_COMP = components/p4netburst
NB_PURE_INC = -I$(NB_COMP) -Inative_events -I$(GENDIR) -Itests/unit
NB_PURE_SRC = $(addprefix $(NB_COMP)/,$(NB_SCHED_FILES)) $(NB_COMP)/nb_presets.c $(NB_COMP)/nb_encode.c $(NB_COMP)/nb_evsel.c $(GENDIR)/nb_tables.c
NB_UTILS = nb_encode nb_decode nb_schedule
NB_UTIL_SRC = utils/nb_util.c $(NB_COMP)/nb_decode.c $(NB_COMP)/nb_partition.c $(NB_PURE_SRC) $(KP4_SRC)

# nb_report --html's page and libraries (below)
REPORT_ASSETS = $(BUILDDIR)/share/report
REPORT_NPM = $(BUILDDIR)/report-npm
REPORT_PAGE = utils/report/report.html utils/report/report.js utils/report/report.css
utils: $(addprefix $(BUILDDIR)/utils/,$(NB_UTILS)) $(BUILDDIR)/utils/nb_stat $(BUILDDIR)/utils/nb_msr_reset $(BUILDDIR)/utils/nb_record $(BUILDDIR)/utils/nb_report $(REPORT_ASSETS)/stamp

# nb_msr_reset: the PMU back to its power-on state after a counting program
# ended by _exit() or SIGKILL (utils/nb_msr_reset_main.c; backend_msr.c)
NB_MSR_RESET_SRC = utils/nb_msr_reset_main.c $(NB_COMP)/backend_msr.c $(NB_COMP)/backend_regs.c \
	$(NB_COMP)/backend_cpuid.c $(GENDIR)/nb_tables.c
$(BUILDDIR)/utils/nb_msr_reset: $(NB_MSR_RESET_SRC) $(wildcard $(NB_COMP)/*.h) | gen
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_NB) $(NB_PURE_INC) -Isim -o $@ $(NB_MSR_RESET_SRC) -lpthread

# nb_stat: counts a whole program (utils/nb_stat.c; the nbsim and perf backends)
NB_STAT_SRC = utils/nb_stat.c utils/nb_stat_print.c utils/nb_stat_out.c utils/nb_stat_stdin.c utils/nb_stat_run.c utils/nb_prog.c $(NB_COMP)/backend_cpuid.c
# nb_stat's and nb_record's parts' headers (utils/README.md)
NB_STAT_HDR = utils/nb_stat_types.h utils/nb_prog.h utils/nb_stat_run.h utils/nb_stat_out.h \
	utils/nb_stat_stdin.h utils/nb_stat_print.h
NB_RECORD_HDR = utils/nb_record_sim.h utils/nb_record_perf.h
$(BUILDDIR)/utils/nb_stat: $(NB_STAT_SRC) $(NB_STAT_HDR) utils/nb_util.h sim/nbsim_counts.h $(NB_UTIL_SRC) $(wildcard $(NB_COMP)/*.h) | gen
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NB) $(NB_PURE_INC) -Iutils -Isim -o $@ $(NB_STAT_SRC) $(NB_UTIL_SRC)

# nb_record: samples a whole program on nbsim (sim/nb_samples.c writes the
# samples; Capstone decodes the data addresses); nb_report reads the profile
NB_RECORD_SRC = utils/nb_record.c utils/nb_record_sim.c utils/nb_record_perf.c utils/nb_stat_out.c utils/nb_stat_run.c utils/nb_prog.c $(NB_COMP)/backend_cpuid.c
$(BUILDDIR)/utils/nb_record: $(NB_RECORD_SRC) utils/nb_tsv.h $(NB_RECORD_HDR) $(NB_STAT_HDR) utils/nb_util.h sim/nbsim_counts.h $(NB_UTIL_SRC) $(wildcard $(NB_COMP)/*.h) | gen
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NB) $(NB_PURE_INC) -Iutils -Isim -o $@ $(NB_RECORD_SRC) $(NB_UTIL_SRC) -lcapstone

# nb_report --html's page (utils/report/): its template and script, and the
# libraries it draws with, from the npm registry at the versions the lock
# file pins (d3, d3-flame-graph, Chart.js), copied beside it with their
# licences
$(REPORT_NPM)/stamp: utils/report/package.json utils/report/package-lock.json
	@rm -rf $(REPORT_NPM) && mkdir -p $(REPORT_NPM)
	cp utils/report/package.json utils/report/package-lock.json $(REPORT_NPM)/
	cd $(REPORT_NPM) && npm ci --no-audit --no-fund --loglevel=error >npm.log 2>&1 || \
		{ cat $(REPORT_NPM)/npm.log; exit 1; }
	touch $@
$(REPORT_ASSETS)/stamp: $(REPORT_NPM)/stamp $(REPORT_PAGE)
	@mkdir -p $(REPORT_ASSETS)
	cp $(REPORT_PAGE) $(REPORT_ASSETS)/
	cp $(REPORT_NPM)/node_modules/d3/dist/d3.min.js $(REPORT_ASSETS)/d3.min.js
	cp $(REPORT_NPM)/node_modules/d3-flame-graph/dist/d3-flamegraph.umd.min.js $(REPORT_ASSETS)/d3-flamegraph.min.js
	cp $(REPORT_NPM)/node_modules/chart.js/dist/chart.umd.min.js $(REPORT_ASSETS)/chart.umd.min.js
	{ for p in d3 d3-flame-graph chart.js; do \
		echo "==== $$p $$(sed -n 's/^ *"version": "\(.*\)",*$$/\1/p' $(REPORT_NPM)/node_modules/$$p/package.json | head -1)"; \
		cat $(REPORT_NPM)/node_modules/$$p/LICENSE*; echo; done; } > $(REPORT_ASSETS)/LICENSES.txt
	touch $@

NB_REPORT_SRC = utils/nb_report.c utils/nb_report_prof.c utils/nb_report_views.c utils/nb_report_html.c
NB_REPORT_HDR = utils/nb_report_prof.h utils/nb_report_views.h utils/nb_report_html.h
$(BUILDDIR)/utils/nb_report: $(NB_REPORT_SRC) $(NB_REPORT_HDR) utils/nb_tsv.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NB) -o $@ $(NB_REPORT_SRC)

# The same tools under AddressSanitizer and UBSan: make check runs these
# (NB_UTILS_BIN below; issue 15).
tests: $(addprefix $(T)/san-utils/,$(NB_UTILS)) $(T)/san-utils/nb_stat $(T)/san-utils/nb_record $(T)/san-utils/nb_report

$(T)/san-utils/nb_record: $(NB_RECORD_SRC) utils/nb_tsv.h $(NB_RECORD_HDR) $(NB_STAT_HDR) utils/nb_util.h $(NB_UTIL_SRC) $(wildcard $(NB_COMP)/*.h) | gen
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NB) -O1 $(SAN) $(NB_PURE_INC) -Iutils -Isim -o $@ $(NB_RECORD_SRC) $(NB_UTIL_SRC) -lcapstone

$(T)/san-utils/nb_report: $(NB_REPORT_SRC) $(NB_REPORT_HDR) utils/nb_tsv.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NB) -O1 $(SAN) -Iutils -o $@ $(NB_REPORT_SRC)

$(T)/san-utils/nb_stat: $(NB_STAT_SRC) $(NB_STAT_HDR) utils/nb_util.h sim/nbsim_counts.h $(NB_UTIL_SRC) $(wildcard $(NB_COMP)/*.h) | gen
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NB) -O1 $(SAN) $(NB_PURE_INC) -Iutils -Isim -o $@ $(NB_STAT_SRC) $(NB_UTIL_SRC)

$(T)/san-utils/%: utils/%_main.c utils/nb_util.h $(NB_UTIL_SRC) $(wildcard $(NB_COMP)/*.h) | gen
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NB) -O1 $(SAN) $(NB_PURE_INC) -Iutils -o $@ $< $(NB_UTIL_SRC)

$(BUILDDIR)/utils/%: utils/%_main.c utils/nb_util.h $(NB_UTIL_SRC) $(wildcard $(NB_COMP)/*.h) | gen
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NB) $(NB_PURE_INC) -Iutils -o $@ $< $(NB_UTIL_SRC)

$(BUILDDIR)/bench/sched_bench: bench/sched_bench.c tests/unit/sched_gen.h $(NB_PURE_SRC) $(KP4_SRC) $(wildcard $(NB_COMP)/*.h) | gen
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NB) $(NB_PURE_INC) -o $@ bench/sched_bench.c $(NB_PURE_SRC) $(KP4_SRC)

bench: all $(BUILDDIR)/bench/sched_bench
	$(BUILDDIR)/bench/sched_bench 2000
	$(MAKE) -C sim bench BUILD=$(BUILDDIR)/sim NBGEN=$(GENDIR)
	BENCH=$(BUILDDIR)/sim/bench/bench CPUTIME=$(BUILDDIR)/sim/bench/cputime NBSIM=$(NBSIM) \
		NB_STAT=$(BUILDDIR)/utils/nb_stat sim/bench/stat_bench.sh
	$(MAKE) -C sim bench-tp BUILD=$(BUILDDIR)/sim NBGEN=$(GENDIR)
	CPUTIME=$(BUILDDIR)/sim/bench/cputime NBSIM=$(NBSIM) NB_STAT=$(BUILDDIR)/utils/nb_stat \
		TPBIN=$(BUILDDIR)/sim/bench sim/bench/thirdparty.sh
	CPUTIME=$(BUILDDIR)/sim/bench/cputime NBSIM=$(NBSIM) NB_STAT=$(BUILDDIR)/utils/nb_stat \
		TPBIN=$(BUILDDIR)/sim/bench sim/bench/lockstep.sh
	CPUTIME=$(BUILDDIR)/sim/bench/cputime NBSIM=$(NBSIM) NB_STAT=$(BUILDDIR)/utils/nb_stat \
		NB_RECORD=$(BUILDDIR)/utils/nb_record NB_REPORT=$(BUILDDIR)/utils/nb_report \
		TPBIN=$(BUILDDIR)/sim/bench bench/record.sh

# the bench's third-party section: PAPI's ctest burn, fixed work (its
# testlib loops, from PAPI's build)
bench: $(BUILDDIR)/sim/bench/tp_ctest
$(BUILDDIR)/sim/bench/tp_ctest: sim/bench/tp_ctest.c $(PAPI_STAMP)
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -g -I$(PAPI_SRC)/testlib -o $@ sim/bench/tp_ctest.c $(PAPI_SRC)/testlib/do_loops.o

install: all
	$(MAKE) -C $(PAPI_SRC) install-lib install-utils install-man install-hl-scripts install-pkgconf \
		PREFIX=$(PREFIX) >$(BUILDDIR)/papi-install.log 2>&1 || \
		{ tail -20 $(BUILDDIR)/papi-install.log; exit 1; }
	sed -i -e 's|^prefix=.*|prefix=$(PREFIX)|' -e 's|^exec_prefix=.*|exec_prefix=$${prefix}|' \
		-e 's|^libdir=.*|libdir=$${exec_prefix}/lib|' -e 's|^includedir=.*|includedir=$${prefix}/include|' \
		$(PREFIX)/lib/pkgconfig/papi.pc
	$(MAKE) -C sim install BUILD=$(BUILDDIR)/sim NBGEN=$(GENDIR) PREFIX=$(PREFIX)
	mkdir -p $(PREFIX)/bin
	install -m 755 $(addprefix $(BUILDDIR)/utils/,$(NB_UTILS) nb_stat nb_msr_reset nb_record nb_report) $(PREFIX)/bin/
	mkdir -p $(PREFIX)/share/p4netburst/report
	install -m 644 $(REPORT_PAGE) $(addprefix $(REPORT_ASSETS)/,d3.min.js d3-flamegraph.min.js chart.umd.min.js LICENSES.txt) \
		$(PREFIX)/share/p4netburst/report/
	mkdir -p $(PREFIX)/share/man/man1
	install -m 644 man/nb_stat.1 man/nb_record.1 man/nb_report.1 man/nb_schedule.1 man/nb_encode.1 man/nb_decode.1 man/nbsim.1 \
		$(PREFIX)/share/man/man1/

clean:
	-$(MAKE) -C $(PAPI_SRC) clean >/dev/null 2>&1
	rm -rf $(BUILDDIR)/sim $(T) $(GENDIR) $(BUILDDIR)/utils $(BUILDDIR)/bench

distclean:
	rm -rf build config.mk
