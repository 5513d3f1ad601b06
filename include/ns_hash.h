/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dcache's name hash in one pass, as the kernel's walker takes it
 * (hash_name): a word at a time up to the '/' or NUL that ends the
 * component, its hash and its length together.  The dcache is keyed by
 * full_name_hash(); this is that hash, written for the walker, and
 * dcache_model.c checks the two agree at load: where they ever differ,
 * names are hashed in two passes instead (strchrnul, full_name_hash).
 * 64-bit little-endian words with DCACHE_WORD_ACCESS (x86-64);
 * elsewhere the two passes always.
 */
#ifndef NS_HASH_H
#define NS_HASH_H

#include <linux/bitops.h>
#include <linux/hash.h>
#include <linux/stringhash.h>
#include <linux/types.h>

#if defined(CONFIG_DCACHE_WORD_ACCESS) && BITS_PER_LONG == 64
#include <asm/word-at-a-time.h>
#define NS_HASH_ONE_PASS 1

/* One whole word @a into the running pair @x, @y. */
static __always_inline void ns_hash_mix(unsigned long *x, unsigned long *y,
					unsigned long a)
{
	*x ^= a;
	*y ^= *x;
	*x = rol64(*x, 12);
	*x += *y;
	*y = rol64(*y, 45);
	*y *= 9;
}

static inline unsigned int ns_hash_fold(unsigned long x, unsigned long y)
{
	y ^= x * GOLDEN_RATIO_64;
	y *= GOLDEN_RATIO_64;
	return y >> 32;
}

/*
 * The hash and length (a hash_len) of the component at @name, for the
 * directory @salt.  Reads whole words, beyond the component's end but
 * never into a page that is not there (load_unaligned_zeropad).
 */
static inline u64 ns_hash_name(const void *salt, const char *name)
{
	const struct word_at_a_time k = WORD_AT_A_TIME_CONSTANTS;
	unsigned long x = 0, y = (unsigned long)salt;
	unsigned long a, b, adata, bdata, mask;
	unsigned long len = 0;

	for (;;) {
		a = load_unaligned_zeropad(name + len);
		b = a ^ REPEAT_BYTE('/');
		/* both tested: each sets its own data */
		if (has_zero(a, &adata, &k) | has_zero(b, &bdata, &k))
			break;
		ns_hash_mix(&x, &y, a);
		len += sizeof(unsigned long);
	}
	adata = prep_zero_mask(a, adata, &k);
	bdata = prep_zero_mask(b, bdata, &k);
	mask = create_zero_mask(adata | bdata);
	x ^= a & zero_bytemask(mask);
	return hashlen_create(ns_hash_fold(x, y), len + find_zero(mask));
}
#else
#define NS_HASH_ONE_PASS 0

static inline u64 ns_hash_name(const void *salt, const char *name)
{
	return 0;	/* never called: ns_hash_one_pass is off */
}
#endif

#endif /* NS_HASH_H */
