/*
 * nb_opts.c - nbsim's command-line options (--model, --ht, --nbsim-*) and
 * their usage text.
 */
#include "nb_tool.h"

const HChar *clo_model = NB_CPU_DEFAULT;
Bool clo_ht = False;
Bool clo_stats = False;
Bool clo_warn = True;
Bool clo_list = False;
UInt clo_mem_timing = MT_YES;
Bool clo_cg_compat = False;

/* ---- options, init, fini ---- */

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
	else if VG_BOOL_CLO(arg, "--nbsim-warn-unmodelled", clo_warn) {}
	else if VG_BOOL_CLO(arg, "--nbsim-list-events", clo_list) {}
	else if VG_XACT_CLO(arg, "--nbsim-cache=netburst", clo_cg_compat, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-cache=cachegrind", clo_cg_compat, True) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=auto", clo_mem_timing, MT_YES) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=yes", clo_mem_timing, MT_YES) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=no", clo_mem_timing, MT_NO) {}
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
"    --nbsim-stats=yes|no      print signal totals at exit [no]\n"
"    --nbsim-warn-unmodelled=yes|no  warn once when a counter is programmed\n"
"                              for an event the model does not produce [yes]\n"
"    --nbsim-list-events=yes|no  print every event:MASK the model produces\n"
"                              (lines 'nbsim-event EVENT:MASK') and exit [no]\n"
"    --nbsim-mem-timing=yes|no  loads take the cache model's latencies in\n"
"                              cycles (counting cycles runs it); no: every\n"
"                              load hits the L1D (auto: old name of yes) [yes]\n"
"    --nbsim-cache=netburst|cachegrind  cache policies; cachegrind: write-\n"
"                              allocate L1D, 64-byte L2 lines (a test mode) [netburst]\n",
		NB_CPU_DEFAULT);
}

void nb_print_debug_usage(void)
{
	VG_(printf)("    (none)\n");
}

