/* SPDX-License-Identifier: MIT */
/*
 * variant.h - the one registry of named variants that hl_zero's and
 * hl_try_copy's choices share (variant.c), and the choice built on it.
 *
 * A variant table (arch.h: hl_arch_zero_impls, hl_arch_copy_impls) is an
 * array of entries that each begin with a struct hl_variant, ending with
 * one whose name is NULL; the registry finds an entry by name, names the
 * i-th, and says whether this CPU runs one.
 *
 * A choice is the automatic plan or one variant forced by the environment
 * (HOTLINE_ZERO, HOTLINE_COPY) or by a call (hl_zero_use, hl_copy_use). Its
 * owner (zero.c, copy.c) describes it (struct hl_choice: its table, its
 * init, which makes the plan, and its publish hook); the choice runs init
 * once and calls publish, under its lock, whenever what is chosen changes
 * or the fault handler comes in (fault.h).
 *
 * Internal to the library: hidden in libhotline.so.
 */
#ifndef HOTLINE_SRC_VARIANT_H
#define HOTLINE_SRC_VARIANT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include <hotline/cpu.h>

/* What every variant has: its name, and whether a CPU runs it. */
struct hl_variant {
	const char *name;
	bool (*supported)(const struct hl_cpu *cpu);
};

/* A table: its first entry, and the size of each (each begins with a struct hl_variant). */
struct hl_variant_table {
	const struct hl_variant *first;
	size_t stride;
};

/* The entry named name (NULL: none, or name NULL). */
const struct hl_variant *hl__variant_find(const struct hl_variant_table *t, const char *name);
/* The i-th entry's name, NULL past the last. */
const char *hl__variant_name(const struct hl_variant_table *t, unsigned i);
/* Whether the entry named name exists and this CPU runs it. */
bool hl__variant_supported(const struct hl_variant_table *t, const char *name);

/*
 * A choice. init makes the owner's plan and ends with hl__choice_start;
 * it runs once (hl__choice_ready), at load or at the first use.
 * publish(v, installed) puts v (NULL: the automatic plan) where the
 * entry points read it; installed says whether the fault handler is in
 * (until then the armed entries keep their installing resolvers). It is
 * called with lock held.
 */
struct hl_choice {
	const char *env; /* the environment variable that may force a variant */
	struct hl_variant_table variants;
	void (*init)(void);
	void (*publish)(const struct hl_variant *v, bool installed);
	pthread_once_t once;
	pthread_mutex_t lock;
	const struct hl_variant *_Atomic forced;
	bool installed; /* under lock */
};

/* From the owner's constructor: init now, and publish again once the fault handler is in. */
void hl__choice_at_load(struct hl_choice *c);
/* init, if it has not run. */
void hl__choice_ready(struct hl_choice *c);
/* The end of init: force what c->env names if this CPU runs it, and publish. */
void hl__choice_start(struct hl_choice *c, const struct hl_cpu *cpu);
/* hl_zero_use / hl_copy_use: "auto" or a variant this CPU runs; 0, or -1. */
int hl__choice_use(struct hl_choice *c, const char *name);
/* The forced variant, NULL for the automatic plan (after init). */
const struct hl_variant *hl__choice_forced(const struct hl_choice *c);

/*
 * What is in force, given the automatic plan's layout l (plan.h): the
 * variant's name (the forced one's, or l's first), and the size classes
 * (one class for a forced variant).
 */
struct hl_plan_layout;
struct hl_size_plan;
const char *hl__choice_name(struct hl_choice *c, const struct hl_plan_layout *l);
void hl__choice_classes(struct hl_choice *c, const struct hl_plan_layout *l,
			struct hl_size_plan *p);

#endif /* HOTLINE_SRC_VARIANT_H */
