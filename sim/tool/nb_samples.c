/*
 * nb_samples.c - the samples of nb_record (utils/nb_record.c): overflow
 * interrupts (IEBS) and PEBS records of an unmodified program, taken by
 * nbsim and written to a file, as --nbsim-counts writes the counts.
 *
 * The --nbsim-program file arms the counters as a sampling driver would:
 * a counter that samples every P events starts at 2^40 - P; with OVF_PMI_T0
 * in its CCCR it interrupts (IEBS), on the PEBS counter (16; 17 for the
 * second logical processor) with IA32_PEBS_ENABLE's uop-tagging and PEBS
 * bits it takes PEBS records.  The guest has no handler and no DS save area
 * (it does not know it is sampled), so nbsim plays the kernel's part:
 *
 *   IEBS: the PMI is taken where the modelled skid puts it (nb_pmi.c,
 *   skid_take); nb_samples_pmi writes the interrupted IP and re-arms the
 *   counter with the events it counted since the overflow kept
 *   (counter - P: every event belongs to one period, so the samples times
 *   the period are the count, to less than one period).
 *
 *   PEBS: nb_pebs_uop builds the record (the registers as the tagged load
 *   sees them, the IP of its instruction); with no DS area it comes here
 *   and the counter is reloaded with its initial value, as the DS area's
 *   counter reset would reload it.
 *
 *   --nbsim-sample-random=BITS: each period, the first included, is the
 *   counter's period P less 2^(BITS-1) plus BITS random bits, so that a
 *   period never stays in step with a loop's trip (AMD's IBS randomizes
 *   the low 4 bits of its counter in hardware [AMD BKDG for Family 10h,
 *   IBS Fetch Control, IbsRandEn], which Linux's perf offers as the
 *   ibs_fetch PMU's rand_en; NetBurst has no such bit, so the sampling
 *   driver's reload does it).  Centred on P, the periods average P - 1/2:
 *   the samples times P stay the count.  The bits come from a generator
 *   seeded by --nbsim-sample-seed: the same seed, the same periods, so a
 *   run's profile is the same every time.
 *
 * Symbols are resolved here, by valgrind's debug-info reader, when an
 * address is first seen (as callgrind and cachegrind resolve theirs): the
 * objects are mapped where the guest mapped them at that moment, so no map
 * of the address space is needed afterwards.
 *
 * The file (valgrind's %p applies; one per process with
 * --trace-children=yes; opened for appending, so an exec'd image adds
 * its part after a new header; tab-separated fields, numbers in hex):
 *
 *   nbsim-samples 1
 *   pid PID
 *   model NAME
 *   counter CTR PERIOD iebs|pebs     (decimal)
 *   s IP OBJ SVMA FN FILE LINE       a symbol: SVMA the IP in OBJ's own
 *                                    addresses (objdump's), FN "?" unknown,
 *                                    FILE "?" and LINE 0 without line info
 *   i CTR TID LWP N IP STACK         an interrupt: N periods (more than 1
 *                                    when the counter ran past a whole
 *                                    period within the skid), STACK the
 *                                    callers (return address - 1, innermost
 *                                    first, comma-separated) or "-"
 *   p CTR TID LWP REGS EA BYTES STACK DSYM  a PEBS record: REGS the 18
 *                                    registers of the record (nb_ds.h order,
 *                                    comma-separated), EA the model's
 *                                    effective address of the load, BYTES the
 *                                    instruction bytes at the IP (up to 15),
 *                                    DSYM the data symbol EA falls in,
 *                                    NAME+OFFSET (decimal), or "-"
 *   exec                             the image ends in an execve
 *   end                              the process exits
 */
#include "nb_samples.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_machine.h"


static Int fd = -1;
static HChar obuf[1 << 16];
static Int opos;
static ULong period[NB_NUM_COUNTERS];    /* 0: the counter does not sample */
static uint64_t pebs_reset[2];
static ULong rnd_state;                  /* splitmix64's (seeded at init)  */
static VgHashTable *seen;                /* IPs whose symbol line is out   */

struct seen_ip {
	struct seen_ip *next;
	UWord key;
};

static void flush(void)
{
	if (fd >= 0 && opos > 0)
		VG_(write)(fd, obuf, opos);
	opos = 0;
}

static void put(const HChar *fmt, ...) PRINTF_CHECK(1, 2);
static void put(const HChar *fmt, ...)
{
	HChar b[4096];
	va_list ap;
	Int n;

	va_start(ap, fmt);
	n = (Int)VG_(vsnprintf)(b, sizeof b, fmt, ap);
	va_end(ap);
	if (n >= (Int)sizeof b)
		n = (Int)sizeof b - 1;
	if (opos + n > (Int)sizeof obuf)
		flush();
	VG_(memcpy)(obuf + opos, b, n);
	opos += n;
}

/* A name as one field: no tab or newline in it */
static const HChar *field(const HChar *s, HChar *b, Int len)
{
	Int i;

	if (!s || !*s)
		return "?";
	for (i = 0; s[i] && i < len - 1; i++)
		b[i] = (s[i] == '\t' || s[i] == '\n') ? ' ' : s[i];
	b[i] = 0;
	return b;
}

/* The symbol line of IP, the first time it is seen */
static void symbol(Addr ip)
{
	DiEpoch ep = VG_(current_DiEpoch)();
	const HChar *fn = NULL, *file = NULL, *dir = NULL, *obj = NULL;
	HChar bf[1024], bo[1024], bl[1024], path[2048];
	DebugInfo *di;
	UInt line = 0;
	Addr svma = ip;
	struct seen_ip *n;

	if (VG_(HT_lookup)(seen, ip))
		return;
	n = VG_(malloc)("nbsim.samples.seen", sizeof *n);
	n->key = ip;
	VG_(HT_add_node)(seen, n);
	if (!VG_(get_fnname)(ep, ip, &fn))
		fn = NULL;
	if (!VG_(get_filename_linenum)(ep, ip, &file, &dir, &line))
		file = NULL, line = 0;
	if (!VG_(get_objname)(ep, ip, &obj))
		obj = NULL;
	di = VG_(find_DebugInfo)(ep, ip);
	if (di)
		svma = ip - (Addr)VG_(DebugInfo_get_text_bias)(di);
	if (file && dir && *dir && file[0] != '/') {
		VG_(snprintf)(path, sizeof path, "%s/%s", dir, file);
		file = path;
	}
	put("s\t%lx\t%s\t%lx\t%s\t%s\t%u\n", (unsigned long)ip, field(obj, bo, sizeof bo),
	    (unsigned long)svma, field(fn, bf, sizeof bf), field(file, bl, sizeof bl), line);
}

/* The callers of TID as a field (their symbols first) */
static void stack(ThreadId tid, HChar *out, Int len)
{
	Addr ips[NB_SAMPLE_MAXDEPTH + 1];
	UInt n, k = 0;
	Int o = 0;

	out[0] = '-';
	out[1] = 0;
	if (!clo_sample_stack || !tid || tid >= VG_N_THREADS)
		return;
	n = VG_(get_StackTrace)(tid, ips, clo_sample_stack + 1, NULL, NULL, 0);
	/* frame 0 is the thread's own IP (the sample has the exact one); the
	 * callers are return addresses: -1 is inside their call instruction,
	 * whose line and function are the caller's */
	for (UInt i = 1; i < n; i++) {
		Addr a = ips[i] - 1;
		const HChar *obj;

		/* an address in no object is not a return address: the
		 * unwinder went past the outermost frame (ld.so's _start) */
		if (!VG_(get_objname)(VG_(current_DiEpoch)(), a, &obj))
			break;
		symbol(a);
		o += VG_(snprintf)(out + o, len - o, "%s%lx", k++ ? "," : "", (unsigned long)a);
		if (o >= len - 20)
			break;
		/* the frames beyond the C library's start of main are the
		 * unwinder's guesses (valgrind stops there too: its
		 * --show-below-main=no) */
		if (VG_(get_fnname_kind_from_IP)(VG_(current_DiEpoch)(), a) == Vg_FnNameBelowMain)
			break;
	}
}

static void header(void)
{
	put("nbsim-samples 1\npid\t%d\nmodel\t%s\n", nb_pid(), nb_cpu->name);
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		if (period[c])
			put("counter\t%u\t%llu\t%s\n", c, period[c],
			    (c == 16 || c == 17) && pebs_reset[c - 16] ? "pebs" : "iebs");
}

static void open_file(void)
{
	HChar *path = VG_(expand_file_name)("--nbsim-samples", clo_samples);
	SysRes r = VG_(open)(path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_APPEND, 0644);

	if (sr_isError(r)) {
		VG_(fmsg)("nbsim: cannot write --nbsim-samples file '%s'\n", path);
		VG_(exit)(1);
	}
	fd = VG_(safe_fd)((Int)sr_Res(r));
	VG_(free)(path);
	if (seen)
		VG_(HT_destruct)(seen, VG_(free));
	seen = VG_(HT_construct)("nbsim.samples.seen");
	header();
}

/* The next period of counter c: period[c], or with BITS random low bits
 * (above).  The generator is splitmix64 [Steele, Lea, Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014]: any seed,
 * 0 included, starts a full-period sequence. */
static ULong next_period(unsigned c)
{
	ULong z, m;

	if (!clo_sample_random || period[c] <= (1ULL << clo_sample_random))
		return period[c];
	z = (rnd_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	m = (1ULL << clo_sample_random) - 1;
	return period[c] - (1ULL << (clo_sample_random - 1)) + (z & m);
}

/* A forked child: its own file; the parent's unwritten lines are the parent's */
static void after_fork_child(ThreadId tid)
{
	(void)tid;
	opos = 0;
	if (fd >= 0)
		VG_(close)(fd);
	open_file();
}

static uint32_t own_mask(void);

void nb_samples_init(void)
{
	if (!clo_samples)
		return;
	/* the periods, from the counters as the program file left them */
	nb_derive();
	nb_update_cycles();
	nb_pmu_sync(&nb_pmu_state, nb_sig);
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		Bool pebs = (c == 16 || c == 17) && nb_pebs_on &&
			(nb_other_msr(NB_MSR_IA32_PEBS_ENABLE) & (UINT64_C(1) << 24));
		if (!((nb_pmu_state.pmi_armed >> c) & 1) && !pebs)
			continue;
		period[c] = NB_COUNTER_MASK + 1 - (nb_pmu_state.ctr[c] & NB_COUNTER_MASK);
		if (pebs)
			pebs_reset[c - 16] = nb_pmu_state.ctr[c];
	}
	/* random periods: the first one too (the program file armed every
	 * counter a whole period short of its overflow) */
	rnd_state = clo_sample_seed;
	for (unsigned c = 0; clo_sample_random && c < NB_NUM_COUNTERS; c++)
		if (period[c])
			(void)nb_wrmsr_req(nb_counters[c].msr,
					   (NB_COUNTER_MASK + 1 - next_period(c)) & NB_COUNTER_MASK);
	open_file();
	nb_need_pmi_own = own_mask();
	VG_(atfork)(NULL, NULL, after_fork_child);
}

void nb_samples_fini(void)
{
	if (fd < 0)
		return;
	put("end\n");
	flush();
	VG_(close)(fd);
	fd = -1;
	nb_need_pmi_own = 0;
}

void nb_samples_pre_syscall(UInt sysno)
{
	/* execve (59) and execveat (322): the next image writes after this */
	if (fd >= 0 && (sysno == 59 || sysno == 322)) {
		put("exec\n");
		flush();
	}
}

/* the counters whose PMIs nb_samples_pmi takes on either logical
 * processor (the IEBS counters), 0 without a profile being written */
static uint32_t own_mask(void)
{
	uint32_t own = 0;

	if (fd < 0)
		return 0;
	/* (a PEBS counter's overflow is PEBS's on its LP, not a sample:
	 * as nb_samples_pmi, not owned on either) */
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++)
		if (period[c] && !((c == 16 || c == 17) && pebs_reset[c - 16]))
			own |= 1u << c;
	return own;
}

uint32_t nb_samples_pmi(uint32_t pend, unsigned lp, Addr ip, ThreadId tid)
{
	uint32_t took = 0;
	HChar st[NB_SAMPLE_MAXDEPTH * 20 + 8];
	Int lwp;

	if (fd < 0 || !pend)
		return 0;
	lwp = tid == VG_(get_running_tid)() ? VG_(gettid)() : nb_lp_lwpid[lp & 1];
	for (unsigned c = 0; c < NB_NUM_COUNTERS; c++) {
		ULong x, n;

		if (!((pend >> c) & 1) || !period[c] || (c == 16 + lp && pebs_reset[lp & 1]))
			continue;
		took |= 1u << c;
		/* the counter wrapped: x events since; each whole period in
		 * them is a sample of its own (n), the rest starts the next */
		x = nb_pmu_state.ctr[c] & NB_COUNTER_MASK;
		if (clo_sample_random) {
			ULong p = next_period(c);
			for (n = 1; x >= p; n++) {
				x -= p;
				p = next_period(c);
			}
			x = (x - p) & NB_COUNTER_MASK;
		} else {
			n = 1 + x / period[c];
			x = (x % period[c] - period[c]) & NB_COUNTER_MASK;
		}
		(void)nb_wrmsr_req(nb_counters[c].cccr_msr, nb_pmu_state.cccr[c] & ~NB_CCCR_OVF);
		(void)nb_wrmsr_req(nb_counters[c].msr, x);
		symbol(ip);
		stack(tid, st, sizeof st);
		put("i\t%u\t%u\t%d\t%llu\t%lx\t%s\n", c, tid, lwp, n, (unsigned long)ip, st);
	}
	return took;
}

void nb_samples_pebs(unsigned lp, const uint64_t *r, uint64_t *reset)
{
	HChar st[NB_SAMPLE_MAXDEPTH * 20 + 8], regs[NB_PEBS_NREGS * 17 + 1], bytes[40], ds[1100], bn[1024];
	const HChar *dname = NULL;
	PtrdiffT doff = 0;
	ThreadId tid = VG_(get_running_tid)();
	Addr ip = (Addr)r[NB_PEBS_IP];
	Int o = 0, len = 15;

	*reset = pebs_reset[lp & 1];
	if (clo_sample_random && period[16 + (lp & 1)])
		*reset = (NB_COUNTER_MASK + 1 - next_period(16 + (lp & 1))) & NB_COUNTER_MASK;
	if (fd < 0)
		return;
	for (unsigned i = 0; i < NB_PEBS_NREGS; i++)
		o += VG_(snprintf)(regs + o, (Int)sizeof regs - o, "%s%llx", i ? "," : "",
				   (ULong)r[i]);
	/* the instruction's bytes, as far as they are mapped */
	while (len > 0 && !VG_(am_is_valid_for_client)(ip, len, VKI_PROT_READ))
		len--;
	for (Int i = 0; i < len; i++)
		VG_(snprintf)(bytes + 2 * i, 3, "%02x", ((const UChar *)ip)[i]);
	bytes[2 * len] = 0;
	/* the global variable the load reads (the ELF symbol table's data
	 * symbols; a heap block or a stack slot has none) */
	if (VG_(get_datasym_and_offset)(VG_(current_DiEpoch)(), nb_samples_ea, &dname, &doff))
		VG_(snprintf)(ds, sizeof ds, "%s+%ld", field(dname, bn, sizeof bn), (long)doff);
	else
		VG_(strcpy)(ds, "-");
	symbol(ip);
	stack(tid, st, sizeof st);
	put("p\t%u\t%u\t%d\t%s\t%lx\t%s\t%s\t%s\n", 16 + (lp & 1), tid, VG_(gettid)(), regs,
	    (unsigned long)nb_samples_ea, len ? bytes : "-", st, ds);
}
