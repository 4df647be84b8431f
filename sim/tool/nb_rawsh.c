/*
 * nb_rawsh.c - the batched static counts (nb_instr.c, struct batch: the
 * instructions by class, uops, loads, stores, microcode ROM uops and
 * transfers a superblock adds once per run) held in a word each of the
 * running thread's second shadow guest state, moved into nb_raw when the
 * thread stops running client code.
 *
 * Why not add them to nb_raw directly: a global count is a load and a
 * store of a fixed address, reached through a host register loaded with
 * it, and the runs of a short loop chain those through the host's store
 * forwarding.  The guest's own registers live in the guest state and are
 * reached off its pointer, as these words are: their adds then cost
 * about what the guest's register traffic does (the lockstep's countdown,
 * NB_LS_SLOT, is there for the same reason).
 *
 * The counts are nb_raw plus the running thread's words.  Only one thread
 * runs client code at a time, and whenever it stops (valgrind's
 * stop_client_code: before every system call, client request, signal
 * delivery and thread switch, and after a fault) nb_rawsh_stop moves its
 * words into nb_raw and zeroes them, so outside generated code nb_raw is
 * whole.  A helper inside it that folds the counts (nb_derive) calls
 * nb_rawsh_pull, which adds what the words gained since the last pull
 * without writing them: the superblock's later adds may hold a word's
 * value in a host register (VEX forwards a Put to the Gets after it).
 * Valgrind copies the shadow state into a signal frame and back at
 * rt_sigreturn, and into a new thread at clone: each after a stop, when
 * the words are zero.
 *
 * Not in thin translations (nb_instr_pmi.c), whose boundary checks move
 * nb_raw itself, nor where batching is off (step mode, a PMI possible).
 */
#include "nb_tool.h"
#include "nb_rawsh.h"

/* the words: RAW_LOADS, RAW_STORES, then RAW_ROM_UOPS .. RAW_UOPS, which
 * are contiguous (nb_tool.h) */
#define NSLOT (2 + RAW_UOPS - RAW_ROM_UOPS + 1)
#define SHADOW 2                         /* the second shadow state       */

static ULong pulled[NSLOT];              /* added to nb_raw since the stop */
static Bool used;                        /* a translation holds counts here */
static ThreadId running;                 /* in client code; 0 outside      */

static UInt raw_of(UInt s)
{
	return s < 2 ? s : RAW_ROM_UOPS + s - 2;
}

Int nb_rawsh_offset(UInt raw)
{
	Int s;

	if (raw <= RAW_STORES)
		s = (Int)raw;
	else if (raw >= RAW_ROM_UOPS && raw <= RAW_UOPS)
		s = 2 + (Int)(raw - RAW_ROM_UOPS);
	else
		return -1;
	used = True;
	return SHADOW * (Int)sizeof(VexGuestAMD64State) + s * (Int)sizeof(ULong);
}

static void words(ThreadId tid, ULong *w)
{
	VG_(get_shadow_regs_area)(tid, (UChar *)w, SHADOW, 0, NSLOT * sizeof(ULong));
}

void nb_rawsh_start(ThreadId tid)
{
	running = tid;
}

void nb_rawsh_pull(void)
{
	ULong w[NSLOT];

	if (!used || !running)
		return;
	words(running, w);
	for (UInt s = 0; s < NSLOT; s++)
		if (w[s] != pulled[s]) {
			nb_raw[raw_of(s)] += w[s] - pulled[s];
			pulled[s] = w[s];
		}
}

void nb_rawsh_stop(ThreadId tid)
{
	static const ULong zero[NSLOT];
	ULong w[NSLOT];
	Bool any = False;

	running = 0;
	if (!used)
		return;
	words(tid, w);
	for (UInt s = 0; s < NSLOT; s++) {
		if (w[s] != pulled[s])
			nb_raw[raw_of(s)] += w[s] - pulled[s];
		any |= w[s] != 0;
		pulled[s] = 0;
	}
	if (any)
		VG_(set_shadow_regs_area)(tid, SHADOW, 0, NSLOT * sizeof(ULong), (const UChar *)zero);
}
