/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The texts a mesh store owns, in large chunks rather than one allocation
 * a cell: the reasons of failed cells kept once each (a cable down fails
 * thousands of cells with one text), and the analysis's flag reasons;
 * the cells' error counters too.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_int.h"

#define CHUNK_BYTES 65536

struct str_chunk {
	struct str_chunk *next;
	size_t used, cap;
	char text[];
};

/* A copy of s (len bytes and a NUL) in the pool's chunks. */
static char *put_copy(struct str_pool *p, const char *s, size_t len)
{
	struct str_chunk *c = p->head;
	size_t cap;
	char *d;

	if (!c || c->cap - c->used < len + 1) {
		cap = len + 1 > CHUNK_BYTES ? len + 1 : CHUNK_BYTES;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = p->head;
		c->used = 0;
		c->cap = cap;
		p->head = c;
	}
	d = c->text + c->used;
	memcpy(d, s, len);
	d[len] = '\0';
	c->used += len + 1;
	return d;
}

void *rdp_mesh_pool_alloc(struct str_pool *p, size_t len)
{
	struct str_chunk *c = p->head;
	size_t pad, cap;

	/* The text starts 8-aligned (three size_t words before it). */
	pad = c ? (8 - c->used % 8) % 8 : 0;
	if (!c || c->cap - c->used < pad + len) {
		cap = len > CHUNK_BYTES ? len : CHUNK_BYTES;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = p->head;
		c->used = 0;
		c->cap = cap;
		p->head = c;
		pad = 0;
	}
	c->used += pad + len;
	return c->text + c->used - len;
}

const char *rdp_mesh_str_add(struct str_pool *p, const char *s)
{
	return put_copy(p, s, strlen(s));
}

/* FNV-1a. */
static uint64_t hash_of(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* The table at twice the size, every text placed again. */
static int rehash(struct str_pool *p)
{
	size_t n = p->n_slots ? 2 * p->n_slots : 64, i, j;
	const char **slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (i = 0; i < p->n_slots; i++) {
		if (!p->slot[i])
			continue;
		for (j = hash_of(p->slot[i]) & (n - 1); slot[j];
		     j = (j + 1) & (n - 1))
			;
		slot[j] = p->slot[i];
	}
	free(p->slot);
	p->slot = slot;
	p->n_slots = n;
	return 0;
}

const char *rdp_mesh_str_intern(struct str_pool *p, const char *s)
{
	size_t j;

	if (2 * (p->used + 1) > p->n_slots && rehash(p))
		return NULL;
	for (j = hash_of(s) & (p->n_slots - 1); p->slot[j];
	     j = (j + 1) & (p->n_slots - 1))
		if (!strcmp(p->slot[j], s))
			return p->slot[j];
	p->slot[j] = put_copy(p, s, strlen(s));
	if (p->slot[j])
		p->used++;
	return p->slot[j];
}

void rdp_mesh_str_free(struct str_pool *p)
{
	struct str_chunk *c, *next;

	for (c = p->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(p->slot);
	memset(p, 0, sizeof(*p));
}
