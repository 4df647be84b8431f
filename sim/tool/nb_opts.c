/*
 * nb_opts.c - nbsim's command-line options (--model, --ht, --nbsim-*) and
 * their usage text.
 */
#include "nb_tool.h"
#include "nb_samples.h"

const HChar *clo_model = NB_CPU_DEFAULT;
Bool clo_ht = False;
Bool clo_stats = False;
Bool clo_warn = True;
Bool clo_list = False;
UInt clo_mem_timing = MT_YES;
enum nb_clock clo_clock = NB_CLOCK_SAMPLED;   /* the default (README "The sampled clock") */
UInt clo_sample_skip = NB_SAMPLE_SKIP;
const HChar *clo_sample_given;
UInt clo_sample_forget = NB_SAMPLE_FORGET;
Bool clo_step_each = False;
Bool clo_cg_compat = False;
Bool clo_exact_ir = True;
Bool clo_cold = True;
Bool clo_ht_migrate = False;
Bool clo_trace_forked = True;
const HChar *clo_program;               /* the front-ends' (nb_progfile.c) */
const HChar *clo_counts;
Int clo_perf_paranoid = 2;              /* the emulated kernel's (nb_kern.c) */
Bool clo_msr_driver = True;
Bool clo_time_host = False;     /* simulated, the default: docs/simulated-time.md */
Bool clo_random_host = False;   /* --nbsim-random=host (default seeded: nb_entropy.c) */
ULong clo_random_seed = 0;      /* --nbsim-seed=N */
Bool clo_ctx_cpu = False;       /* --nbsim-pmu-ctx=cpu (nb_ctx.c) */
Bool clo_lockstep = True;       /* --nbsim-lockstep (nb_lockstep.c) */
Bool clo_lockstep_pause = True; /* --nbsim-lockstep-pause */
UInt clo_lockstep_bound = 100000; /* --nbsim-lockstep-bound: cycles (or instructions) */
Bool clo_smt_walk = False;      /* --nbsim-smt-clock=walk (nb_cycles.c) */
UInt clo_pmi_latency = ~0u;     /* --nbsim-pmi-latency; ~0: the model's (nb_pmi.c) */
Bool clo_pmi_sync = True;       /* --nbsim-pmi-sync (nb_pmi.c) */
Bool clo_pmi_thin = True;       /* --nbsim-pmi-thin (nb_instr_pmi.c) */
Bool clo_pmi_verify = False;    /* --nbsim-pmi-verify (nb_pmi_arm.c)  */
Bool clo_pmi_bound_armed = True; /* --nbsim-pmi-bound=armed|any (nb_pmi_arm.c) */
Bool clo_pmi_bound_double;      /* --nbsim-pmi-bound=double (nb_instr_rules.c) */
Bool clo_isa_host = False;      /* --nbsim-isa=host (nb_ud.c) */
const HChar *clo_samples;       /* --nbsim-samples=FILE, or NULL (nb_samples.c) */
UInt clo_sample_stack;          /* --nbsim-sample-stack=N: callers per sample */
UInt clo_sample_random;         /* --nbsim-sample-random=BITS: random low bits */
ULong clo_sample_seed = 1;      /* --nbsim-sample-seed=N: their generator's seed */

/* ---- options, init, fini ---- */

/* The --nbsim-* options with enumerated values (--nbsim-program and
 * --nbsim-counts take a file name), for the messages on a bad one
 * (nb_print_usage has the same list with the meanings; t_nbsim_cli.sh
 * checks that the launcher's --help names every one). */
static const struct { const HChar *name, *values; } nb_opt_values[] = {
	{ "--nbsim-stats", "yes, no" },
	{ "--nbsim-warn-unmodelled", "yes, no" },
	{ "--nbsim-list-events", "yes, no" },
	{ "--nbsim-mem-timing", "auto, yes, no" },
	{ "--nbsim-clock", "sampled, model, walk, fast" },
	{ "--nbsim-time", "host, simulated" },
	{ "--nbsim-random", "seeded, host" },
	{ "--nbsim-step-derive", "lazy, cycle" },
	{ "--nbsim-cache", "netburst, cachegrind" },
	{ "--nbsim-pmu-ctx", "thread, cpu" },
	{ "--nbsim-ht-place", "fixed, migrate" },
	{ "--nbsim-lockstep", "yes, no" },
	{ "--nbsim-lockstep-pause", "yes, no" },
	{ "--nbsim-smt-clock", "sampled, walk" },
	{ "--nbsim-exact-ir", "yes, no" },
	{ "--nbsim-cold", "yes, no" },
	{ "--nbsim-trace-forked", "yes, no" },
	{ "--nbsim-isa", "model, host" },
};

/* An --nbsim-* argument no rule took: a known option with a value it does
 * not have, or an unknown option; either way say what exists. */
static void nb_bad_nbsim_option(const HChar *arg)
{
	const HChar *eq = VG_(strchr)(arg, '=');
	Int len = eq ? (Int)(eq - arg) : (Int)VG_(strlen)(arg);
	HChar all[300];
	Int n = 0;

	for (unsigned i = 0; i < sizeof nb_opt_values / sizeof nb_opt_values[0]; i++)
		if ((Int)VG_(strlen)(nb_opt_values[i].name) == len &&
		    VG_(strncmp)(arg, nb_opt_values[i].name, len) == 0) {
			if (!eq)
				VG_(fmsg_bad_option)(arg, "%s needs a value (values: %s)\n",
						     nb_opt_values[i].name, nb_opt_values[i].values);
			VG_(fmsg_bad_option)(arg, "%s has no value '%s' (values: %s)\n",
					     nb_opt_values[i].name, eq + 1, nb_opt_values[i].values);
		}
	all[0] = 0;
	for (unsigned i = 0; i < sizeof nb_opt_values / sizeof nb_opt_values[0]; i++)
		n += VG_(snprintf)(all + n, (Int)sizeof all - n, "%s%s", i ? ", " : "",
				   nb_opt_values[i].name);
	VG_(fmsg_bad_option)(arg, "unknown nbsim option (known: %s; see nbsim --help)\n", all);
}

Bool nb_process_cmd_line_option(const HChar *arg)
{
	if VG_STR_CLO(arg, "--model", clo_model) {
		if (!nb_cpu_find(clo_model)) {
			HChar known[200];
			Int n = 0;
			known[0] = 0;
			for (unsigned i = 0; i < nb_num_cpu_models; i++)
				n += VG_(snprintf)(known + n, (Int)sizeof known - n, "%s%s",
						   i ? ", " : "", nb_cpu_models[i].name);
			VG_(fmsg_bad_option)(arg, "unknown NetBurst model '%s' (known: %s)\n",
					     clo_model, known);
		}
	}
	else if VG_BOOL_CLO(arg, "--ht", clo_ht) {}
	else if VG_BOOL_CLO(arg, "--nbsim-stats", clo_stats) {}
	else if VG_STR_CLO(arg, "--nbsim-program", clo_program) {}
	else if VG_BOOL_CLO(arg, "--nbsim-exact-ir", clo_exact_ir) {}
	else if VG_BOOL_CLO(arg, "--nbsim-cold", clo_cold) {}
	else if VG_STR_CLO(arg, "--nbsim-counts", clo_counts) {}
	else if VG_BOOL_CLO(arg, "--nbsim-trace-forked", clo_trace_forked) {}
	else if VG_XACT_CLO(arg, "--nbsim-isa=model", clo_isa_host, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-isa=host", clo_isa_host, True) {}
	else if VG_XACT_CLO(arg, "--nbsim-pmu-ctx=thread", clo_ctx_cpu, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-pmu-ctx=cpu", clo_ctx_cpu, True) {}
	else if VG_XACT_CLO(arg, "--nbsim-ht-place=fixed", clo_ht_migrate, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-ht-place=migrate", clo_ht_migrate, True) {}
	else if VG_BOOL_CLO(arg, "--nbsim-lockstep", clo_lockstep) {}
	else if VG_BOOL_CLO(arg, "--nbsim-lockstep-pause", clo_lockstep_pause) {}
	else if VG_BINT_CLO(arg, "--nbsim-lockstep-bound", clo_lockstep_bound, 1000, 100000000) {}
	else if VG_BOOL_CLO(arg, "--nbsim-warn-unmodelled", clo_warn) {}
	else if VG_BOOL_CLO(arg, "--nbsim-list-events", clo_list) {}
	else if VG_XACT_CLO(arg, "--nbsim-cache=netburst", clo_cg_compat, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-cache=cachegrind", clo_cg_compat, True) {}
	else if VG_XACT_CLO(arg, "--nbsim-smt-clock=sampled", clo_smt_walk, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-smt-clock=walk", clo_smt_walk, True) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=auto", clo_mem_timing, MT_YES) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=yes", clo_mem_timing, MT_YES) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=no", clo_mem_timing, MT_NO) {}
	else if VG_XACT_CLO(arg, "--nbsim-clock=model", clo_clock, NB_CLOCK_MODEL) {}
	else if VG_XACT_CLO(arg, "--nbsim-clock=fast", clo_clock, NB_CLOCK_FAST) {}
	else if VG_XACT_CLO(arg, "--nbsim-clock=walk", clo_clock, NB_CLOCK_WALK) {}
	else if VG_XACT_CLO(arg, "--nbsim-clock=sampled", clo_clock, NB_CLOCK_SAMPLED) {}
	else if VG_XACT_CLO(arg, "--nbsim-time=simulated", clo_time_host, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-time=host", clo_time_host, True) {}
	else if VG_XACT_CLO(arg, "--nbsim-random=seeded", clo_random_host, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-random=host", clo_random_host, True) {}
	else if VG_BINT_CLO(arg, "--nbsim-seed", clo_random_seed, 0, 0x7fffffffffffffffLL) {}
	else if VG_BINT_CLO(arg, "--nbsim-sample", clo_sample_skip, 1, 1000000)
		clo_sample_given = "--nbsim-sample";
	else if VG_BINT_CLO(arg, "--nbsim-sample-forget", clo_sample_forget, 0, 1000000000)
		clo_sample_given = "--nbsim-sample-forget";
	else if VG_XACT_CLO(arg, "--nbsim-step-derive=lazy", clo_step_each, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-step-derive=cycle", clo_step_each, True) {}
	else if VG_BINT_CLO(arg, "--nbsim-pmi-latency", clo_pmi_latency, 0, 100000) {}
	else if VG_BOOL_CLO(arg, "--nbsim-pmi-sync", clo_pmi_sync) {}
	else if VG_BOOL_CLO(arg, "--nbsim-pmi-thin", clo_pmi_thin) {}
	else if VG_BOOL_CLO(arg, "--nbsim-pmi-verify", clo_pmi_verify) {}
	else if VG_XACT_CLO(arg, "--nbsim-pmi-bound=armed", clo_pmi_bound_armed, True) {}
	else if VG_XACT_CLO(arg, "--nbsim-pmi-bound=any", clo_pmi_bound_armed, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-pmi-bound=double", clo_pmi_bound_double, True) {}
	else if VG_INT_CLO(arg, "--perf-paranoid", clo_perf_paranoid) {}   /* nb_kern.c */
	else if VG_BOOL_CLO(arg, "--msr-driver", clo_msr_driver) {}
	else if VG_STR_CLO(arg, "--nbsim-samples", clo_samples) {}
	else if VG_BINT_CLO(arg, "--nbsim-sample-stack", clo_sample_stack, 0, NB_SAMPLE_MAXDEPTH) {}
	else if VG_BINT_CLO(arg, "--nbsim-sample-random", clo_sample_random, 0, NB_SAMPLE_MAXRANDOM) {}
	else if VG_BINT_CLO(arg, "--nbsim-sample-seed", clo_sample_seed, 0, 0xffffffffLL) {}
	else if (VG_(strncmp)(arg, "--nbsim-", 8) == 0)
		nb_bad_nbsim_option(arg);       /* does not return */
	else
		return False;
	return True;
}

void nb_print_usage(void)
{
	VG_(printf)(
"    --model=NAME              willamette|northwood|prescott|cedarmill|xeonmp\n"
"                              [%s]\n"
"    --ht=yes|no               model Hyper-Threading: two logical processors,\n"
"                              thread t on LP (t-1) mod 2 [no: all on LP0]\n"
"    --nbsim-ht-place=fixed|migrate  with --ht=yes: threads stay on the LP\n"
"                              they were created on / a new thread goes to the\n"
"                              LP with fewer threads, and when a thread exits\n"
"                              leaving its LP 2 threads short, the other LP's\n"
"                              highest ThreadId moves to it (counts follow\n"
"                              it) [fixed]\n"
"    --nbsim-stats=yes|no      print signal totals at exit [no]\n"
"    --nbsim-pmu-ctx=thread|cpu  counters per guest thread, saved and restored\n"
"                              at thread switches as the kernel does / per\n"
"                              logical processor, shared by its threads [thread]\n"
"    --nbsim-lockstep=yes|no   run the guest threads in an order and for times\n"
"                              that simulated time decides, the two LPs' clocks\n"
"                              within --nbsim-lockstep-bound of each other / as\n"
"                              valgrind and the host schedule them [yes]\n"
"    --nbsim-lockstep-bound=N  the LPs' clocks' lead, in cycles (instructions\n"
"                              while nothing counts cycles) (1000-100000000;\n"
"                              fewer: closer, each turn a host thread switch)\n"
"                              [100000]\n"
"    --nbsim-lockstep-pause=yes|no  under the lockstep, a PAUSE decides in place\n"
"                              whether its thread runs on / goes back to\n"
"                              valgrind's scheduler to ask (the same counts;\n"
"                              a check) [yes]\n"
"    --nbsim-smt-clock=sampled|walk  with --ht=yes, while both logical\n"
"                              processors run: the sampled clock, its walked\n"
"                              runs sharing the package / walk: the model on\n"
"                              every run [sampled]\n"
"    --nbsim-warn-unmodelled=yes|no  warn once when a counter is programmed\n"
"                              for an event the model does not produce [yes]\n"
"    --nbsim-list-events=yes|no  print every event:MASK the model produces\n"
"                              (lines 'nbsim-event EVENT:MASK') and exit [no]\n"
"    --nbsim-mem-timing=yes|no  loads take the cache model's latencies in\n"
"                              cycles (counting cycles runs it); no: every\n"
"                              load hits the L1D (auto: old name of yes) [yes]\n"
"    --nbsim-clock=sampled|model|walk|fast  cycles from the timing model\n"
"                              (dependencies, units, window) run on a sample of\n"
"                              the superblock runs, learned costs on the others\n"
"                              (about 1%% off the model's, 2%% on short programs)\n"
"                              / model: on every run (2-6x slower) / walk: the\n"
"                              model without replay of recorded schedules (the\n"
"                              reference; same cycles, slower still) / fast: uops\n"
"                              retire 3 per cycle, plus miss latencies and\n"
"                              mispredict penalties (cheap, not faithful) [sampled]\n"
"    --nbsim-sample=N          sampled clock: superblock runs skipped between two\n"
"                              samples, on average, at most (1-1000000) [8000];\n"
"                              refused with another clock\n"
"    --nbsim-sample-forget=N   sampled clock: forget the learned costs after N\n"
"                              superblock runs without a PMU access, and learn\n"
"                              them again (0: never) [4194304]; refused with\n"
"                              another clock\n"
"    --nbsim-time=host|simulated  what the program's clocks read (RDTSC,\n"
"                              clock_gettime, gettimeofday, time, clock, times,\n"
"                              getrusage, CPU-time itimers): the host's, or the\n"
"                              simulated part's time from its cycles at the\n"
"                              model's clock (the timing model then runs from\n"
"                              the start) [simulated]\n"
"    --nbsim-random=seeded|host  the kernel's random bytes (getrandom,\n"
"                              /dev/urandom, /dev/random): from a generator\n"
"                              seeded by --nbsim-seed, the same every run, or\n"
"                              the host's [seeded]\n"
"    --nbsim-seed=N            that generator's seed (0-2^63-1) [0]\n"
"    --nbsim-step-derive=lazy|cycle  step mode (a per-cycle filter): fold the\n"
"                              raw counts only when a cycle needs it / cycle:\n"
"                              at every retirement cycle (the reference; the\n"
"                              same counts, slower) [lazy]\n"
"    --nbsim-cache=netburst|cachegrind  cache policies; cachegrind: write-\n"
"                              allocate L1D, 64-byte L2 lines (a test mode) [netburst]\n"
"    --perf-paranoid=N         the emulated /proc/sys/kernel/perf_event_paranoid\n"
"                              (-1..3; 3 as Debian's: no perf for unprivileged) [2]\n"
"    --msr-driver=yes|no       the emulated msr driver is loaded (/dev/cpu/N/msr) [yes]\n"
"    --nbsim-exact-ir=yes|no   keep every register update, so that VEX's\n"
"                              optimiser removes no load and no flags (no: its\n"
"                              default, dead loads are lost; a bench mode) [yes]\n"
"    --nbsim-cold=yes|no       cold code (before a counter is enabled, with\n"
"                              simulated time; a superblock's first 2048 runs)\n"
"                              calls the cache model per access instead of its\n"
"                              inline hit path (cheaper to translate; the same\n"
"                              counts and cycles; no: a test mode) [yes]\n"
"    --nbsim-program=FILE      MSR writes ('wrmsr 0xMSR 0xVALUE' lines) applied\n"
"                              before the guest's first instruction (nb_stat)\n"
"    --nbsim-counts=FILE       at exit, write the counters, totals and one row\n"
"                              per thread, to FILE (%%p: the pid) (nb_stat)\n"
"    --nbsim-trace-forked=yes|no  with --trace-children=yes, does a forked\n"
"                              child's execve stay under nbsim? no: only the\n"
"                              program's own execve does (nb_stat without\n"
"                              --follow) [yes]\n"
"    --nbsim-isa=model|host    an instruction the model lacks (AVX, SSSE3,\n"
"                              POPCNT..., SSE3 before Prescott) raises #UD:\n"
"                              SIGILL, as on the hardware / host: runs as the\n"
"                              host runs it, with a warning [model]\n",
		NB_CPU_DEFAULT);
	VG_(printf)(
"    --nbsim-pmi-latency=N     cycles from the overflowing instruction's retirement\n"
"                              to the PMI (the IEBS skid; 0-100000) [the model's:\n"
"                              59 Northwood, 91 Prescott]\n"
"    --nbsim-pmi-sync=yes|no   the PMI then waits for the local APIC's next\n"
"                              bus-clock edge (0 to ratio - 1 cycles: the skid's\n"
"                              spread) [yes]\n"
"    --nbsim-pmi-thin=yes|no   while a PMI is possible, superblocks without a\n"
"                              check at each instruction (a guard at the start,\n"
"                              a guarded call where a check comes due) [yes]\n"
"    --nbsim-pmi-bound=armed|any|double  the checks' bound per instruction: what\n"
"                              the armed counters' events can gain, or any\n"
"                              event's (the bound before, 2026-11-30), or armed\n"
"                              twice (a control: more checks, the same samples\n"
"                              where the bounds are strict) [armed]\n"
"    --nbsim-pmi-verify=yes|no  at each PMI check, compare the clock's cycles\n"
"                              since the budget was set with what the budget\n"
"                              lost (cycle counters; --nbsim-stats prints the\n"
"                              checks found short) [no]\n");
	VG_(printf)(
"    --nbsim-samples=FILE      take the overflow interrupts and PEBS records of\n"
"                              the counters --nbsim-program armed, and write\n"
"                              one sample line each to FILE (%%p: the pid) (nb_record)\n"
"    --nbsim-sample-stack=N    with --nbsim-samples, the N innermost callers of\n"
"                              each sample (0-%d) [0]\n"
"    --nbsim-sample-random=BITS  with --nbsim-samples, each period's BITS low bits\n"
"                              random, centred on the counter's period (0-%d) [0]\n"
"    --nbsim-sample-seed=N     the seed of those random bits: the same seed, the\n"
"                              same periods (0-4294967295) [1]\n", NB_SAMPLE_MAXDEPTH,
	NB_SAMPLE_MAXRANDOM);
}

void nb_print_debug_usage(void)
{
	VG_(printf)("    (none)\n");
}

