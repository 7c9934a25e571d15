/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Names to numbers for the fabric's model: an open-addressing table
 * (linear probing, at most half full) whose keys point at the model's own
 * strings, so a fabric of 100 000 hosts loads in linear time.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"

struct topo_slot {
	const char *key; /* NULL: empty */
	size_t len;
	unsigned int val;
};

/* FNV-1a, 64 bits. */
static uint64_t hash(const char *key, size_t len)
{
	uint64_t h = 14695981039346656037ull;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* The slot holding key, or the empty one where it would go. */
static struct topo_slot *slot_of(const struct topo_index *x, const char *key,
				 size_t len)
{
	size_t mask = x->cap - 1, i = (size_t)hash(key, len) & mask;
	struct topo_slot *s;

	for (;; i = (i + 1) & mask) {
		s = &x->slot[i];
		if (!s->key || (s->len == len && !memcmp(s->key, key, len)))
			return s;
	}
}

int topo_index_room(struct topo_index *x, size_t n)
{
	struct topo_index big = { 0 };
	size_t i;

	if (2 * n <= x->cap)
		return 0;
	big.cap = x->cap ? x->cap : 64;
	while (big.cap < 2 * n)
		big.cap *= 2;
	big.slot = calloc(big.cap, sizeof(*big.slot));
	if (!big.slot)
		return -ENOMEM;
	for (i = 0; i < x->cap; i++)
		if (x->slot[i].key)
			*slot_of(&big, x->slot[i].key, x->slot[i].len) =
				x->slot[i];
	big.n = x->n;
	free(x->slot);
	*x = big;
	return 0;
}

void topo_index_put(struct topo_index *x, const char *key, size_t len,
		    unsigned int val)
{
	struct topo_slot *s = slot_of(x, key, len);

	if (s->key)
		return; /* the first one stays, as a walk from 0 finds it */
	*s = (struct topo_slot){ .key = key, .len = len, .val = val };
	x->n++;
}

int topo_index_get(const struct topo_index *x, const char *key, size_t len)
{
	const struct topo_slot *s;

	if (!x->n)
		return -ENOENT;
	s = slot_of(x, key, len);
	return s->key ? (int)s->val : -ENOENT;
}

void topo_index_fini(struct topo_index *x)
{
	free(x->slot);
	*x = (struct topo_index){ 0 };
}
