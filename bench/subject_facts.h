/* SPDX-License-Identifier: MIT */
/*
 * subject_facts.h - what a measured subject is, as typed facts: declared
 * once per subject (hotline-bench's subject tables, hotline-sim's policies)
 * and written into both tools' JSON as the "subjects" object.
 *
 * The code that runs a subject reads these facts, never its name: which
 * figures its loop gathers, the retry limit it runs with, which CPUs can
 * run it. bench/README.md ("Adding a subject", "The subjects object")
 * says what each fact means in the JSON and which kinds each scenario uses.
 */
#ifndef HOTLINE_SUBJECT_FACTS_H
#define HOTLINE_SUBJECT_FACTS_H

#include <stdbool.h>

#include <jansson.h>

/*
 * What a subject is: "kind" in the JSON, the name after SUBJECT_ in lower
 * case. These are the kinds several scenarios (or hotline-sim) share; a
 * scenario declares a kind of its own in its own file instead (own_kind).
 */
enum subject_kind {
	SUBJECT_KIND_UNSET, /* a table entry without a kind: written null, refused by the tests */
	SUBJECT_ATOMIC,	    /* one atomic read-modify-write per update (fetch-add, hl_refcount) */
	SUBJECT_CAS_LOOP,   /* a compare-and-swap loop */
	SUBJECT_LOCKREF,    /* a lockref: a compare-and-swap loop beside a lock */
	SUBJECT_LOCK,	    /* a counter under a lock */
	SUBJECT_ZERO,	    /* a user-space function that clears memory */
	SUBJECT_COPY,	    /* clears memory by copying zeros */
	SUBJECT_SYSCALL,    /* system calls: the host kernel does the work */
	SUBJECT_DD,	    /* dd: sequential read(2) of a file in large blocks (host kernel) */
};

/* What a loop does after a failed compare-and-swap: "relax" in the JSON. */
enum subject_relax {
	SUBJECT_RELAX_NEVER,	   /* retries at once */
	SUBJECT_RELAX_EVERY,	   /* cpu_relax after every failure */
	SUBJECT_RELAX_EVERY_OTHER, /* cpu_relax after every second failure */
};

/* How a variant differs from the subject it is a variant of: "variant" in the JSON. */
enum subject_variant {
	SUBJECT_VARIANT_NONE,	 /* null: not a variant, or one named by its subject */
	SUBJECT_VARIANT_LLSC,	 /* "llsc": arm64 exclusives (LDXR/STXR) inlined */
	SUBJECT_VARIANT_LSE,	 /* "lse": arm64 LSE atomics inlined; only where the CPU has them */
	SUBJECT_VARIANT_ISB,	 /* "isb": ISB in place of cpu_relax */
	SUBJECT_VARIANT_NO_INSN, /* "none": no instruction in place of cpu_relax */
};

/*
 * The facts of one subject. Zero is the default of every field: a table
 * entry names its kind and what differs from that.
 */
struct subject_facts {
	enum subject_kind kind;
	/*
	 * A kind of the scenario's own, declared in its file: its name in the
	 * JSON ("kind"), written in place of kind's (which then stays unset).
	 */
	const char *own_kind;
	const char *baseline;	/* subject of the same scenario its ratio is against */
	const char *variant_of; /* subject it is a variant of */
	enum subject_variant variant;
	bool counts_attempts;	  /* the bench counts its compare-and-swap attempts */
	unsigned int retry_limit; /* the retry limit it runs with; 0 = none */
	/* The retry limit when it is known only at run time (e.g. the library's). */
	unsigned int (*retry_limit_of)(void);
	bool fallback;		  /* takes the lock after retry_limit failed attempts */
	enum subject_relax relax; /* of a loop (subject_is_loop) */
	bool library;		  /* hotline's own shipped code, not a baseline or a copy */
};

/* Whether the subject is a compare-and-swap loop (kind cas_loop or lockref). */
bool subject_is_loop(const struct subject_facts *f);

/* The retry limit it runs with: retry_limit_of() if set, else retry_limit; 0 = none. */
unsigned int subject_retry_limit(const struct subject_facts *f);

/* The JSON object of the "subjects" entry: every field, in the documented order. */
json_t *subject_facts_json(const char *description, const struct subject_facts *f);

#endif /* HOTLINE_SUBJECT_FACTS_H */
