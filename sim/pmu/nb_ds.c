/*
 * nb_ds.c - DS save area and PEBS records (nb_ds.h; layouts cited there).
 */
#include "nb_ds.h"

static uint64_t get(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = n; i-- > 0;)
		v = (v << 8) | p[i];           /* little endian */
	return v;
}

static void put(uint8_t *p, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

int nb_ds_read(nb_ds_map_fn map, void *cookie, uint64_t area, int fmt64, struct nb_ds *ds)
{
	unsigned w = fmt64 ? 8 : 4;
	const uint8_t *p = map(cookie, area, fmt64 ? NB_DS_SIZE64 : NB_DS_SIZE32);
	uint64_t *f[8] = { &ds->bts_base, &ds->bts_index, &ds->bts_max, &ds->bts_thresh,
			   &ds->pebs_base, &ds->pebs_index, &ds->pebs_max, &ds->pebs_thresh };

	if (!p)
		return NB_PEBS_BADAREA;
	for (unsigned i = 0; i < 8; i++)
		*f[i] = get(p + i * w, w);
	ds->pebs_reset = get(p + 8 * w, 8) & ((UINT64_C(1) << 40) - 1);
	return 0;
}

int nb_ds_pebs_store(nb_ds_map_fn map, void *cookie, uint64_t area, int fmt64,
		     const uint64_t *regs, uint64_t *reset)
{
	struct nb_ds ds;
	unsigned w = fmt64 ? 8 : 4, n = fmt64 ? NB_PEBS_NREGS : 10;
	uint64_t size = (uint64_t)w * n;
	uint8_t *rec, *idx;

	if (nb_ds_read(map, cookie, area, fmt64, &ds))
		return NB_PEBS_BADAREA;
	*reset = ds.pebs_reset;
	if (ds.pebs_index < ds.pebs_base || ds.pebs_index + size > ds.pebs_max)
		return NB_PEBS_FULL;
	rec = map(cookie, ds.pebs_index, size);
	idx = map(cookie, area + 5 * w, w);
	if (!rec || !idx)
		return NB_PEBS_BADAREA;
	for (unsigned i = 0; i < n; i++)
		put(rec + i * w, w, regs[i]);
	ds.pebs_index += size;
	put(idx, w, ds.pebs_index);
	return ds.pebs_index >= ds.pebs_thresh ? NB_PEBS_PMI : NB_PEBS_STORED;
}
