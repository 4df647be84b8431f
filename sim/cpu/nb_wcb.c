/*
 * nb_wcb.c - write-combining buffer model (see nb_wcb.h, README
 * "Write-combining buffers").
 *
 * Sources:
 *  [SDM3A] Intel SDM Vol. 3A, ch. "Memory Cache Control":
 *          - sec. 11.3 "Methods of Caching Available", Write Combining (WC):
 *            a partly filled WC buffer may be kept until the next
 *            serializing event: SFENCE, MFENCE, CPUID, a read or write of
 *            uncached memory, an interrupt, a LOCK instruction;
 *          - sec. 11.3.1 "Buffering of Write Combining Memory Locations":
 *            on Pentium 4 and Intel Xeon the WC buffer is several 64-byte
 *            buffers, filled one at a time; a filled one may be evicted;
 *            a full buffer leaves in one burst write, a partial one in
 *            partial writes; repeated writes to a byte collapse.
 *  [SDM2]  Intel SDM Vol. 2, MOVNTI, MOVNTQ, MOVNTDQ, MOVNTPS, MOVNTPD,
 *          MASKMOVQ, MASKMOVDQU: the non-temporal hint uses the WC
 *          protocol (no write into the caches, no line fetch).
 *  [OPTWC] Intel 64 and IA-32 Architectures Optimization Reference Manual,
 *          sec. 3.6.10 "Write Combining": six WC buffers; eight on
 *          family 15 model 3; two may be written out to higher cache
 *          levels and freed for other write misses, four are guaranteed
 *          for simultaneous use.
 *  [SDMNR] Intel SDM Vol. 3B, table "Performance Monitoring Events
 *          Supported by Intel NetBurst Microarchitecture for
 *          Non-Retirement Counting" (Table 19-28 in the 2016 edition):
 *          WC_Buffer (05H, DAC_ESCR0/1) WCB_EVICTS "WC Buffer evictions
 *          of all causes", WCB_FULL_EVICT "WC Buffer eviction: no WC
 *          buffer is available".
 *  [PFM4]  libpfm4 4.13 lib/events/intel_netburst_events.h, WC_Buffer:
 *          the same two masks and descriptions as [SDMNR].
 *  [OPTB]  IA-32 Intel Architecture Optimization Reference Manual
 *          248966-013, Table B-1 "Pentium 4 Processor Performance
 *          Metrics": "WCB Full Evictions": a WC buffer eviction that
 *          occurred when all of the WC buffers are already allocated.
 *
 * [SDMNR]/[PFM4] name the cause (no buffer was available for a new
 * line); [OPTB] reads as a condition at the time of any eviction (all
 * allocated), which would also count a full-line or fence eviction made
 * while every buffer is in use.  We follow [SDMNR]/[PFM4]: WCB_FULL_EVICT
 * counts the evictions made to free a buffer for a new line.
 *
 * Model (our choices where the manuals are silent):
 *  - a store to a line not held allocates a free buffer; with none free,
 *    the buffer allocated longest ago is evicted (FIFO by allocation);
 *  - a buffer is evicted as soon as all its 64 bytes are written;
 *  - a buffer otherwise stays (no timing: no eviction after a delay);
 *  - all n buffers serve non-temporal stores ([OPTWC]'s two buffers
 *    shared with write misses: nbsim does not pass write-back stores
 *    through the WC buffers).
 */
#include "nb_wcb.h"

/* WC buffers by family-15 CPUID model [OPTWC]: six, eight on model 3;
 * Cedar Mill (model 6, the 65 nm Prescott) is given model 3's eight, our
 * choice (the manual's sentence predates it). */
static const struct { unsigned model, buffers; } wcb_per_model[] = {
	{ 1, 6 }, { 2, 6 }, { 3, 8 }, { 4, 8 }, { 6, 8 },
};

unsigned nb_wcb_buffers(unsigned cpuid_model)
{
	for (unsigned i = 0; i < sizeof wcb_per_model / sizeof wcb_per_model[0]; i++)
		if (wcb_per_model[i].model == cpuid_model)
			return wcb_per_model[i].buffers;
	return 0;
}

int nb_wcb_init(struct nb_wcb *w, unsigned n)
{
	if (!n || n > NB_WCB_MAX)
		return 0;
	w->n = n;
	w->used = 0;
	for (unsigned i = 0; i < NB_WCB_MAX; i++)
		w->line[i] = w->bytes[i] = 0;
	return 1;
}

/* slot i leaves: its eviction into *e, the younger slots move down */
static void wcb_remove(struct nb_wcb *w, unsigned i, unsigned cause, struct nb_wcb_evict *e)
{
	e->line = w->line[i];
	e->bytes = w->bytes[i];
	e->cause = cause;
	for (; i + 1 < w->used; i++) {
		w->line[i] = w->line[i + 1];
		w->bytes[i] = w->bytes[i + 1];
	}
	w->used--;
}

/* the bytes [off, off + size) of a line (off + size <= 64) */
static uint64_t wcb_mask(unsigned off, unsigned size)
{
	return (size >= 64 ? NB_WCB_ALL_BYTES : (UINT64_C(1) << size) - 1) << off;
}

/* a store of the bytes mask to line: returns the evictions written */
static unsigned wcb_line_store(struct nb_wcb *w, uint64_t line, uint64_t mask,
			       struct nb_wcb_evict *out)
{
	unsigned i, k = 0;

	for (i = 0; i < w->used && w->line[i] != line; i++)
		;
	if (i == w->used) {                     /* allocate */
		if (w->used == w->n)
			wcb_remove(w, 0, NB_WCB_NO_FREE, &out[k++]);
		i = w->used++;
		w->line[i] = line;
		w->bytes[i] = 0;
	}
	w->bytes[i] |= mask;                    /* merge (and collapse) */
	if (w->bytes[i] == NB_WCB_ALL_BYTES)
		wcb_remove(w, i, NB_WCB_FULL_LINE, &out[k++]);
	return k;
}

unsigned nb_wcb_store(struct nb_wcb *w, uint64_t addr, unsigned size,
		      struct nb_wcb_evict out[NB_WCB_STORE_EVICTS_MAX])
{
	unsigned off = (unsigned)(addr & 63), first, k;
	uint64_t line = addr >> NB_WCB_LINE_SHIFT;

	size = !size ? 1 : size > 64 ? 64 : size;
	first = off + size > 64 ? 64 - off : size;
	k = wcb_line_store(w, line, wcb_mask(off, first), out);
	if (first < size)                       /* the rest in the next line */
		k += wcb_line_store(w, line + 1, wcb_mask(0, size - first), out + k);
	return k;
}

unsigned nb_wcb_flush(struct nb_wcb *w, struct nb_wcb_evict out[NB_WCB_MAX])
{
	unsigned k = 0;

	while (w->used)
		wcb_remove(w, 0, NB_WCB_FENCE, &out[k++]);
	return k;
}

int nb_wcb_holds(const struct nb_wcb *w, uint64_t addr)
{
	for (unsigned i = 0; i < w->used; i++)
		if (w->line[i] == addr >> NB_WCB_LINE_SHIFT)
			return 1;
	return 0;
}
