/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The random perfect matchings of bisection and quick: drawn from the seed
 * alone, none twice, and the node pairs each one meets for the first time
 * (for the coverage of an estimate), counted as they are drawn. A plan
 * keeps where each matching's draw starts, not its pairs: a round draws
 * its matching again.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

uint64_t rdp_mesh_matchings_count(unsigned int n, uint64_t cap)
{
	uint64_t have = 1;
	unsigned int k;

	/* (n-1)!! for even n; n!! for odd n, where one node rests. */
	for (k = n % 2 ? n : n - 1; k > 1 && have < cap; k -= 2)
		have *= k;
	return have < cap ? have : cap;
}

/*
 * The plan's `order` (plan_int.h) holds three numbers a matching: where
 * its draw starts on the generator, as two 32-bit halves, and the node
 * pairs it meets first (at most N/2).
 */
#define PER_MATCHING 3
#define FRESH_AT     2 /* of a matching's three */

static uint64_t start_of(const struct rdp_mesh_plan *p, size_t m)
{
	const unsigned int *o = p->order + PER_MATCHING * m;

	return (uint64_t)o[0] | (uint64_t)o[1] << 32;
}

static void set_start(struct rdp_mesh_plan *p, size_t m, uint64_t s)
{
	p->order[PER_MATCHING * m] = (unsigned int)(s & 0xffffffffu);
	p->order[PER_MATCHING * m + 1] = (unsigned int)(s >> 32);
}

/*
 * A node order: place 2j and 2j+1 are pair j. The draw keeps it in a
 * plain array; a round in the pairs it hands back, place 2j at x[j].tx
 * and 2j+1 at x[j].rx (by offset, not by a branch the shuffle's random
 * places would mispredict).
 */
static inline unsigned int *in_array(void *o, unsigned int i)
{
	return (unsigned int *)o + i;
}

static inline unsigned int *in_pairs(void *o, unsigned int i)
{
	struct rdp_mesh_xfer *x = o;

	return (unsigned int *)((char *)&x[i / 2] +
				i % 2 * offsetof(struct rdp_mesh_xfer, rx));
}

/*
 * A Fisher-Yates shuffle of the nodes 0..n-1 into the places of o; the
 * modulo bias of a 64-bit draw over at most 100 000 nodes is below
 * 2^-46. With odd n the first swap settles place n-1, the resting node,
 * which no later swap touches: it is drawn first and left out. One text
 * for both kinds of order, made into one function each.
 */
static inline void shuffle_in(void *o,
			      unsigned int *(*at)(void *, unsigned int),
			      unsigned int n, uint64_t *state)
{
	unsigned int i, j, t, m = n - n % 2;

	for (i = 0; i < m; i++)
		*at(o, i) = i;
	i = m - 1;
	if (n % 2) {
		j = (unsigned int)(rdp_mesh_random(state) % n);
		if (j < m)
			*at(o, j) = n - 1;
	}
	for (; i > 0; i--) {
		j = (unsigned int)(rdp_mesh_random(state) % (i + 1));
		t = *at(o, i);
		*at(o, i) = *at(o, j);
		*at(o, j) = t;
	}
}

/* Matching r of the plan as a node order of 2 x N/2 places: 0 is
 * i <-> i+N/2, the others drawn again from where their draw started. */
static void order_of(const struct rdp_mesh_plan *p, size_t r, unsigned int *ord)
{
	unsigned int h = p->o.nodes / 2, j;
	uint64_t state;

	if (r) {
		state = start_of(p, r);
		shuffle_in(ord, in_array, p->o.nodes, &state);
		return;
	}
	for (j = 0; j < h; j++) {
		ord[2 * j] = j;
		ord[2 * j + 1] = j + h;
	}
}

/* The same, as the pairs of a round. */
static void pairs_of(const struct rdp_mesh_plan *p, size_t r,
		     struct rdp_mesh_xfer *x)
{
	unsigned int h = p->o.nodes / 2, j;
	uint64_t state;

	if (r) {
		state = start_of(p, r);
		shuffle_in(x, in_pairs, p->o.nodes, &state);
		for (j = 0; j < h; j++)
			x[j].both = 0;
		return;
	}
	for (j = 0; j < h; j++)
		x[j] = (struct rdp_mesh_xfer){ j, j + h, 0 };
}

/* The lower of two nodes, without a branch: the shuffle puts it on either
 * side at random. */
static inline unsigned int lower(unsigned int a, unsigned int b)
{
	return b ^ ((a ^ b) & -(unsigned int)(a < b));
}

/*
 * One number per matching, the same whatever order its pairs are in: a
 * sum of mixed keys of the pairs that hold one of the nodes 0..63 (all of
 * them up to 64 nodes). Equal numbers are compared pair by pair, so a
 * sum over a few pairs is enough to tell matchings apart, and skipping
 * the others saves most of the work at 100 000 nodes.
 */
#define HASH_NODES 64

static uint64_t matching_hash(const unsigned int *ord, unsigned int n)
{
	uint64_t h = 0, k;
	unsigned int j, a, b;

	for (j = 0; j + 1 < n; j += 2) {
		if (ord[j] >= HASH_NODES && ord[j + 1] >= HASH_NODES)
			continue;
		a = lower(ord[j], ord[j + 1]);
		b = ord[j] ^ ord[j + 1] ^ a;
		k = (uint64_t)a * n + b;
		h += rdp_mesh_random(&k);
	}
	return h;
}

/* Each node's partner in a matching (itself when it rests). */
static void partners(const unsigned int *ord, unsigned int n,
		     unsigned int *mate)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		mate[i] = i;
	for (i = 0; i + 1 < n; i += 2) {
		mate[ord[i]] = ord[i + 1];
		mate[ord[i + 1]] = ord[i];
	}
}

/*
 * The pairs each matching meets first, in cache-sized pieces: each pair
 * (a < b) of a matching drawn goes to the bucket of a's 256 nodes as one
 * 32-bit key (a's low bits, b), after a mark with the matching's number
 * where the bucket's matching changes; keys fill chunks taken from one
 * pool as buckets grow (few buckets: each one's last line stays in L1).
 * A bucket is then sorted by a's 16 nodes, each key with its matching,
 * and each part read in matching order against a bitmap of the pairs it
 * can hold (256 KiB: in L2), whose bits are cleared again after it.
 */
#define BUCKET_SHIFT 8
#define B_BITS	     17 /* b in a key */
#define PAIR_BITS    (BUCKET_SHIFT + B_BITS)
#define SUB_SHIFT    4 /* a's low bits in a part of a bucket */
#define SUB_BITS     (SUB_SHIFT + B_BITS)
#define SUBS	     (1u << (BUCKET_SHIFT - SUB_SHIFT))
#define MARK	     (1u << 31) /* the key is a matching's number */
#define CHUNK	     1024	/* keys */
#define NONE	     UINT32_MAX
_Static_assert(RDP_MESH_PLAN_MAX_NODES <= 1 << B_BITS && PAIR_BITS < 31 &&
		       RDP_MESH_MAX_PERMUTATIONS + 1 <= 1u << (32 - SUB_BITS),
	       "a key holds a's low bits and b, or a matching, in 32 bits; "
	       "a sorted one the matching, a's lowest bits and b");

struct bucket {
	uint32_t head, tail; /* chunks, NONE for none yet */
	uint32_t fill;	     /* keys in the tail chunk */
	uint32_t last;	     /* the matching of the last key, or NONE */
};

struct pairs {
	uint32_t *pool;	  /* chunks of CHUNK keys */
	uint32_t *next;	  /* of each chunk in its bucket, NONE at the end */
	uint32_t used;	  /* chunks taken */
	struct bucket *b; /* nb */
	size_t nb;
	uint32_t *sorted; /* a bucket's keys by part: 1 << BUCKET_SHIFT a
			   * matching at most */
	uint64_t *seen;	  /* the bitmap, 1 << SUB_BITS bits */
};

static void pairs_free(struct pairs *s)
{
	free(s->seen);
	free(s->sorted);
	free(s->b);
	free(s->next);
	free(s->pool);
}

/* Room for the pairs of m matchings of n nodes, and their marks. */
static int pairs_init(struct pairs *s, unsigned int n, size_t m)
{
	size_t chunks, k;

	s->nb = (n >> BUCKET_SHIFT) + 1;
	/* every bucket: a mark a matching at most, less than a chunk of
	 * waste */
	chunks = (m * (n / 2 + s->nb) + CHUNK - 1) / CHUNK + s->nb;
	s->used = 0;
	s->pool = malloc(chunks * CHUNK * sizeof(*s->pool));
	s->next = malloc(chunks * sizeof(*s->next));
	s->b = malloc(s->nb * sizeof(*s->b));
	s->sorted = malloc((m << BUCKET_SHIFT) * sizeof(*s->sorted));
	s->seen = calloc((size_t)1 << (SUB_BITS - 6), sizeof(*s->seen));
	if (!s->pool || !s->next || !s->b || !s->sorted || !s->seen) {
		pairs_free(s);
		return -ENOMEM;
	}
	for (k = 0; k < s->nb; k++)
		s->b[k] = (struct bucket){ NONE, NONE, 0, NONE };
	return 0;
}

static void add_key(struct pairs *s, struct bucket *k, uint32_t key)
{
	if (k->tail == NONE || k->fill == CHUNK) {
		if (k->tail == NONE)
			k->head = s->used;
		else
			s->next[k->tail] = s->used;
		k->tail = s->used++;
		s->next[k->tail] = NONE;
		k->fill = 0;
	}
	s->pool[(size_t)k->tail * CHUNK + k->fill++] = key;
}

/* The h pairs of matching t (a node order) into their buckets. */
static void add_matching(struct pairs *s, uint32_t t, const unsigned int *ord,
			 unsigned int h)
{
	unsigned int a, b, j;
	struct bucket *k;

	for (j = 0; j < h; j++) {
		a = lower(ord[2 * j], ord[2 * j + 1]);
		b = ord[2 * j] ^ ord[2 * j + 1] ^ a;
		k = &s->b[a >> BUCKET_SHIFT];
		if (k->last != t) {
			add_key(s, k, MARK | t);
			k->last = t;
		}
		add_key(s, k, (a & ((1u << BUCKET_SHIFT) - 1)) << B_BITS | b);
	}
}

/* Bucket k's keys by part into s->sorted, each with its matching; end[q]:
 * where part q ends. */
static void sort_bucket(const struct pairs *s, const struct bucket *k,
			uint32_t *end)
{
	uint32_t c, i, n, key, t = 0, at[SUBS] = { 0 }, sum = 0;

	for (c = k->head; c != NONE; c = s->next[c])
		for (i = 0, n = c == k->tail ? k->fill : CHUNK; i < n; i++) {
			key = s->pool[(size_t)c * CHUNK + i];
			if (!(key & MARK))
				at[key >> SUB_BITS]++;
		}
	for (i = 0; i < SUBS; i++) {
		n = at[i];
		at[i] = sum;
		sum += n;
	}
	for (c = k->head; c != NONE; c = s->next[c])
		for (i = 0, n = c == k->tail ? k->fill : CHUNK; i < n; i++) {
			key = s->pool[(size_t)c * CHUNK + i];
			if (key & MARK)
				t = key & ~MARK;
			else
				s->sorted[at[key >> SUB_BITS]++] =
					t << SUB_BITS |
					(key & ((1u << SUB_BITS) - 1));
		}
	memcpy(end, at, sizeof(at));
}

/* The pairs met first in bucket k, counted per matching into fresh[]
 * (PER_MATCHING apart). */
static void count_bucket(const struct pairs *s, const struct bucket *k,
			 unsigned int *fresh)
{
	uint32_t end[SUBS], q, i, from = 0, key, bit;
	uint64_t *seen = s->seen;

	sort_bucket(s, k, end);
	for (q = 0; q < SUBS; from = end[q++]) {
		for (i = from; i < end[q]; i++) {
			key = s->sorted[i];
			bit = key & ((1u << SUB_BITS) - 1);
			if (!(seen[bit / 64] >> (bit % 64) & 1)) {
				seen[bit / 64] |= 1ull << (bit % 64);
				fresh[(size_t)PER_MATCHING *
				      (key >> SUB_BITS)]++;
			}
		}
		for (i = from; i < end[q]; i++)
			seen[(s->sorted[i] & ((1u << SUB_BITS) - 1)) / 64] = 0;
	}
}

/* Scratch of a draw: the matching drawn, an earlier one drawn again, and
 * both as partners. */
struct draw {
	uint64_t *hash;	     /* of each matching drawn */
	unsigned int *x, *y; /* node orders, N each */
	unsigned int *mate;  /* 2 x N */
	struct pairs pairs;
};

/* Whether matching m, in d->x, is one of the matchings before it. */
static int drawn_before(const struct rdp_mesh_plan *p, struct draw *d, size_t m)
{
	unsigned int n = p->o.nodes, *other = d->mate + n;
	size_t t;

	for (t = 0; t < m; t++) {
		if (d->hash[t] != d->hash[m])
			continue;
		order_of(p, t, d->y);
		partners(d->x, n, d->mate);
		partners(d->y, n, other);
		if (!memcmp(d->mate, other, n * sizeof(*other)))
			return 1;
	}
	return 0;
}

/*
 * Matching 0 is i <-> i+N/2; the others are shuffles, each drawn again
 * while it pairs the nodes as an earlier one does (rdp_mesh_plan_check
 * has made sure that enough distinct matchings exist). The draws follow
 * one another on one generator, so the redraws are the seed's too; each
 * matching keeps where its last draw started, and the pairs it meets
 * first.
 */
static void fill(struct rdp_mesh_plan *p, struct draw *d)
{
	unsigned int n = p->o.nodes;
	uint64_t state = p->o.seed;
	size_t m, k;

	order_of(p, 0, d->x);
	d->hash[0] = matching_hash(d->x, n);
	add_matching(&d->pairs, 0, d->x, n / 2);
	for (m = 1; m < p->pairings; m++) {
		do {
			set_start(p, m, state);
			shuffle_in(d->x, in_array, n, &state);
			d->hash[m] = matching_hash(d->x, n);
		} while (drawn_before(p, d, m));
		add_matching(&d->pairs, (uint32_t)m, d->x, n / 2);
	}
	for (k = 0; k < d->pairs.nb; k++)
		count_bucket(&d->pairs, &d->pairs.b[k], p->order + FRESH_AT);
}

int rdp_mesh_matchings_draw(struct rdp_mesh_plan *p)
{
	struct draw d;
	int ret = -ENOMEM;

	p->pairings = 1 + (size_t)p->o.permutations;
	p->order = calloc(PER_MATCHING * p->pairings, sizeof(*p->order));
	d.hash = calloc(p->pairings, sizeof(*d.hash));
	d.x = calloc(p->o.nodes, sizeof(*d.x));
	d.y = calloc(p->o.nodes, sizeof(*d.y));
	d.mate = malloc(2 * (size_t)p->o.nodes * sizeof(*d.mate));
	if (p->order && d.hash && d.x && d.y && d.mate &&
	    !pairs_init(&d.pairs, p->o.nodes, p->pairings)) {
		fill(p, &d);
		pairs_free(&d.pairs);
		ret = 0;
	}
	free(d.hash);
	free(d.x);
	free(d.y);
	free(d.mate);
	return ret;
}

size_t rdp_mesh_matching_round(const struct rdp_mesh_plan *p, size_t r,
			       struct rdp_mesh_xfer *x)
{
	pairs_of(p, r, x);
	return p->o.nodes / 2;
}

int rdp_mesh_matchings_fresh(const struct rdp_mesh_plan *p, size_t m,
			     uint64_t *fresh)
{
	size_t t;

	m = m < p->pairings ? m : p->pairings;
	for (t = 0; t < m; t++)
		fresh[t] = p->order[PER_MATCHING * t + FRESH_AT];
	return 0;
}
