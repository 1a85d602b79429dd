// SPDX-License-Identifier: MIT
/*
 * subject_facts.c - a subject's facts as the JSON "subjects" entry, for
 * hotline-bench and hotline-sim alike (subject_facts.h).
 */
#include <stddef.h>

#include "subject_facts.h"

static const char *const kind_names[] = {
	[SUBJECT_KIND_UNSET] = NULL,
	[SUBJECT_ATOMIC] = "atomic",
	[SUBJECT_CAS_LOOP] = "cas_loop",
	[SUBJECT_LOCKREF] = "lockref",
	[SUBJECT_LOCK] = "lock",
	[SUBJECT_ZERO] = "zero",
	[SUBJECT_COPY] = "copy",
	[SUBJECT_SYSCALL] = "syscall",
	[SUBJECT_DD] = "dd",
};

static const char *const relax_names[] = {
	[SUBJECT_RELAX_NEVER] = "never",
	[SUBJECT_RELAX_EVERY] = "every",
	[SUBJECT_RELAX_EVERY_OTHER] = "every_other",
};

static const char *const variant_names[] = {
	[SUBJECT_VARIANT_NONE] = NULL,	    [SUBJECT_VARIANT_LLSC] = "llsc",
	[SUBJECT_VARIANT_LSE] = "lse",	    [SUBJECT_VARIANT_ISB] = "isb",
	[SUBJECT_VARIANT_NO_INSN] = "none",
};

#define NAME_OF(table, i) ((size_t)(i) < sizeof(table) / sizeof((table)[0]) ? (table)[i] : NULL)

bool subject_is_loop(const struct subject_facts *f)
{
	return f->kind == SUBJECT_CAS_LOOP || f->kind == SUBJECT_LOCKREF;
}

unsigned int subject_retry_limit(const struct subject_facts *f)
{
	return f->retry_limit_of ? f->retry_limit_of() : f->retry_limit;
}

static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *subject_facts_json(const char *description, const struct subject_facts *f)
{
	json_t *o = json_object();
	unsigned int limit = subject_retry_limit(f);
	bool loop = subject_is_loop(f);

	json_object_set_new(
		o, "kind",
		string_or_null(f->own_kind ? f->own_kind : NAME_OF(kind_names, f->kind)));
	json_object_set_new(o, "description", string_or_null(description));
	json_object_set_new(o, "baseline", string_or_null(f->baseline));
	json_object_set_new(o, "variant_of", string_or_null(f->variant_of));
	json_object_set_new(o, "variant", string_or_null(NAME_OF(variant_names, f->variant)));
	json_object_set_new(o, "loop", json_boolean(loop));
	json_object_set_new(o, "counts_attempts", json_boolean(f->counts_attempts));
	json_object_set_new(o, "retry_limit", limit ? json_integer(limit) : json_null());
	json_object_set_new(o, "fallback", json_boolean(f->fallback));
	json_object_set_new(o, "relax",
			    loop ? string_or_null(NAME_OF(relax_names, f->relax)) : json_null());
	json_object_set_new(o, "library", json_boolean(f->library));
	return o;
}
