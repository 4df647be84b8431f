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
UInt clo_mem_timing = MT_AUTO;
Bool clo_cg_compat = False;

/* ---- options, init, fini ---- */

/* The --nbsim-* options and their values, for the messages on a bad one
 * (nb_print_usage has the same list with the meanings; t_nbsim_cli.sh
 * checks that the launcher's --help names every one). */
static const struct { const HChar *name, *values; } nb_opt_values[] = {
	{ "--nbsim-stats", "yes, no" },
	{ "--nbsim-warn-unmodelled", "yes, no" },
	{ "--nbsim-list-events", "yes, no" },
	{ "--nbsim-mem-timing", "auto, yes, no" },
	{ "--nbsim-cache", "netburst, cachegrind" },
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
	else if VG_BOOL_CLO(arg, "--nbsim-warn-unmodelled", clo_warn) {}
	else if VG_BOOL_CLO(arg, "--nbsim-list-events", clo_list) {}
	else if VG_XACT_CLO(arg, "--nbsim-cache=netburst", clo_cg_compat, False) {}
	else if VG_XACT_CLO(arg, "--nbsim-cache=cachegrind", clo_cg_compat, True) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=auto", clo_mem_timing, MT_AUTO) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=yes", clo_mem_timing, MT_YES) {}
	else if VG_XACT_CLO(arg, "--nbsim-mem-timing=no", clo_mem_timing, MT_NO) {}
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
"    --nbsim-stats=yes|no      print signal totals at exit [no]\n"
"    --nbsim-warn-unmodelled=yes|no  warn once when a counter is programmed\n"
"                              for an event the model does not produce [yes]\n"
"    --nbsim-list-events=yes|no  print every event:MASK the model produces\n"
"                              (lines 'nbsim-event EVENT:MASK') and exit [no]\n"
"    --nbsim-mem-timing=auto|yes|no  cache-model stalls add cycles: while the\n"
"                              cache model runs for another event / counting\n"
"                              cycles runs it too / never [auto]\n"
"    --nbsim-cache=netburst|cachegrind  cache policies; cachegrind: write-\n"
"                              allocate L1D, 64-byte L2 lines (a test mode) [netburst]\n",
		NB_CPU_DEFAULT);
}

void nb_print_debug_usage(void)
{
	VG_(printf)("    (none)\n");
}

