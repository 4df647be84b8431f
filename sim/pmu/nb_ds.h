/*
 * nb_ds.h - the Debug Store (DS) save area and PEBS records of NetBurst.
 * A pure module (no libc, no valgrind): nbsim and the component's unit
 * tests share it.  Guest memory is reached through a map callback.
 *
 * Layouts [Intel SDM Vol. 3B, "Debug Store (DS) Mechanism": Figure "DS
 * Save Area" (32-bit format, 4-byte fields), "IA-32e Mode DS Save Area"
 * (64-bit format, 8-byte fields, CPUID.1:ECX.DTES64); "PEBS Record Format"
 * (40 bytes) and "PEBS Record Format for IA-32e mode" (144 bytes)]:
 *
 *   DS field             32-bit  64-bit
 *   BTS buffer base        0x00    0x00
 *   BTS index              0x04    0x08
 *   BTS absolute maximum   0x08    0x10
 *   BTS interrupt thresh.  0x0c    0x18
 *   PEBS buffer base       0x10    0x20
 *   PEBS index             0x14    0x28
 *   PEBS absolute maximum  0x18    0x30
 *   PEBS interrupt thresh. 0x1c    0x38
 *   PEBS counter reset     0x20    0x40   (8 bytes: the 40-bit counter value)
 *
 *   PEBS record: (R/E)FLAGS, (R/E)IP, AX, BX, CX, DX, SI, DI, BP, SP, and
 *   in the 64-bit format R8-R15; 4-byte fields (32-bit) or 8-byte (64-bit).
 *
 * Behaviour [SDM "PEBS" and Sprunt, IEEE Micro 2002 (seed 000): the
 * microassist stores the state, checks the high watermark, interrupts]: a
 * record is stored at the PEBS index if it fits below the absolute maximum
 * (else nothing is stored: the buffer is full); the index advances by the
 * record size; reaching the interrupt threshold asks for a PMI; the PEBS
 * counter is then reloaded with the counter reset value.
 */
#ifndef NB_DS_H
#define NB_DS_H

#include <stdint.h>

#define NB_PEBS_REC32 40u
#define NB_PEBS_REC64 144u
#define NB_DS_SIZE32  0x28u
#define NB_DS_SIZE64  0x48u

/* Register state of a PEBS record, in record order (r[0] flags, r[1] ip,
 * then AX BX CX DX SI DI BP SP R8..R15). */
enum { NB_PEBS_FLAGS, NB_PEBS_IP, NB_PEBS_AX, NB_PEBS_BX, NB_PEBS_CX, NB_PEBS_DX,
       NB_PEBS_SI, NB_PEBS_DI, NB_PEBS_BP, NB_PEBS_SP, NB_PEBS_R8, NB_PEBS_NREGS = 18 };

struct nb_ds {
	uint64_t bts_base, bts_index, bts_max, bts_thresh;
	uint64_t pebs_base, pebs_index, pebs_max, pebs_thresh, pebs_reset;
};

/* Writable host pointer for LEN bytes of guest memory at ADDR, or NULL. */
typedef uint8_t *(*nb_ds_map_fn)(void *cookie, uint64_t addr, uint64_t len);

#define NB_PEBS_STORED    0   /* record stored                          */
#define NB_PEBS_PMI       1   /* stored, and the interrupt threshold reached */
#define NB_PEBS_FULL      2   /* no room below the absolute maximum     */
#define NB_PEBS_BADAREA  -1   /* DS area or buffer not mapped           */

/* Read the DS save area at AREA (format 64 or 32); 0 or NB_PEBS_BADAREA. */
int nb_ds_read(nb_ds_map_fn map, void *cookie, uint64_t area, int fmt64, struct nb_ds *ds);

/* Store one PEBS record of REGS (NB_PEBS_NREGS values; the 32-bit format
 * keeps the low 32 bits of the first ten) through the DS area at AREA;
 * updates its PEBS index.  *RESET receives the counter reset value (40
 * bits).  Returns NB_PEBS_*. */
int nb_ds_pebs_store(nb_ds_map_fn map, void *cookie, uint64_t area, int fmt64,
		     const uint64_t *regs, uint64_t *reset);

#endif
