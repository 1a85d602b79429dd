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
 * owner (zero.c, copy.c) makes the plan, then starts the choice; the
 * choice calls the owner's publish hook, under its lock, whenever what is
 * chosen changes or the fault handler comes in.
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
 * A choice. publish(c, v) puts v (NULL: the automatic plan) where the
 * entry points read it; installed says whether the fault handler is in
 * (until then the armed entries keep their installing resolvers). It is
 * called with c->lock held.
 */
struct hl_choice {
	const char *env; /* the environment variable that may force a variant */
	struct hl_variant_table variants;
	void (*publish)(const struct hl_variant *v, bool installed);
	const struct hl_variant *_Atomic forced;
	bool installed; /* under lock */
	pthread_mutex_t lock;
};

/* The owner's plan is made: force what c->env names if this CPU runs it, and publish. */
void hl__choice_start(struct hl_choice *c, const struct hl_cpu *cpu);
/* The fault handler is in (fault.h, hl__fault_when_installed): publish again. */
void hl__choice_installed(struct hl_choice *c);
/* hl_zero_use / hl_copy_use, once started: "auto" or a variant this CPU runs; 0, or -1. */
int hl__choice_use(struct hl_choice *c, const char *name);
/* The forced variant, NULL for the automatic plan. */
const struct hl_variant *hl__choice_forced(const struct hl_choice *c);

/*
 * What is in force, given the automatic plan's layout l (plan.h): the
 * variant's name (the forced one's, or l's first), and the size classes
 * (one class for a forced variant).
 */
struct hl_plan_layout;
struct hl_size_plan;
const char *hl__choice_name(const struct hl_choice *c, const struct hl_plan_layout *l);
void hl__choice_classes(const struct hl_choice *c, const struct hl_plan_layout *l,
			struct hl_size_plan *p);

#endif /* HOTLINE_SRC_VARIANT_H */
