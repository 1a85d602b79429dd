// SPDX-License-Identifier: MIT
/*
 * variant.c - the registry of named variants and the choice among them
 * (variant.h) that hl_zero and hl_try_copy share: zero.c and copy.c each
 * describe their table and how to publish, and this file does the rest.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "fault.h"
#include "plan.h"
#include "variant.h"

static const struct hl_variant *entry(const struct hl_variant_table *t, unsigned i)
{
	return (const struct hl_variant *)((const char *)t->first + (size_t)i * t->stride);
}

const struct hl_variant *hl__variant_find(const struct hl_variant_table *t, const char *name)
{
	for (unsigned i = 0; name && entry(t, i)->name; i++)
		if (strcmp(entry(t, i)->name, name) == 0)
			return entry(t, i);
	return NULL;
}

const char *hl__variant_name(const struct hl_variant_table *t, unsigned i)
{
	unsigned n = 0;

	while (entry(t, n)->name)
		n++;
	return i < n ? entry(t, i)->name : NULL;
}

bool hl__variant_supported(const struct hl_variant_table *t, const char *name)
{
	const struct hl_variant *v = hl__variant_find(t, name);

	return v && v->supported(hl_cpu());
}

/* Publish v (NULL: automatic); takes the lock. */
static void publish(struct hl_choice *c, const struct hl_variant *v)
{
	pthread_mutex_lock(&c->lock);
	atomic_store_explicit(&c->forced, v, memory_order_relaxed);
	c->publish(v, c->installed);
	pthread_mutex_unlock(&c->lock);
}

void hl__choice_start(struct hl_choice *c, const struct hl_cpu *cpu)
{
	const char *env = getenv(c->env);
	const struct hl_variant *v = NULL;

	if (env && strcmp(env, "auto") != 0) {
		v = hl__variant_find(&c->variants, env);
		if (!v) {
			hl__env_report(c->env, env, "unknown variant; using auto");
		} else if (!v->supported(cpu)) {
			hl__env_report(c->env, env, "not supported by this CPU; using auto");
			v = NULL;
		}
	}
	publish(c, v);
}

void hl__choice_ready(struct hl_choice *c)
{
	pthread_once(&c->once, c->init);
}

/*
 * The fault handler is in: from then on the armed entries go straight to
 * the choice and take no lock, so that a signal handler may call them
 * even while the thread it interrupted is inside its first call.
 */
static void installed(void *arg)
{
	struct hl_choice *c = arg;

	hl__choice_ready(c);
	pthread_mutex_lock(&c->lock);
	c->installed = true;
	c->publish(atomic_load_explicit(&c->forced, memory_order_relaxed), true);
	pthread_mutex_unlock(&c->lock);
}

void hl__choice_at_load(struct hl_choice *c)
{
	hl__choice_ready(c);
	hl__fault_when_installed(installed, c);
}

int hl__choice_use(struct hl_choice *c, const char *name)
{
	const struct hl_variant *v = hl__variant_find(&c->variants, name);
	bool automatic = name && strcmp(name, "auto") == 0;

	hl__choice_ready(c);
	if (!automatic && (!v || !v->supported(hl_cpu())))
		return -1;
	publish(c, automatic ? NULL : v);
	return 0;
}

const struct hl_variant *hl__choice_forced(const struct hl_choice *c)
{
	return atomic_load_explicit(&c->forced, memory_order_relaxed);
}

const char *hl__choice_name(struct hl_choice *c, const struct hl_plan_layout *l)
{
	const struct hl_variant *v;

	hl__choice_ready(c);
	v = hl__choice_forced(c);
	return v ? v->name : l->name;
}

void hl__choice_classes(struct hl_choice *c, const struct hl_plan_layout *l, struct hl_size_plan *p)
{
	const struct hl_variant *v;

	hl__choice_ready(c);
	v = hl__choice_forced(c);
	if (v)
		*p = (struct hl_size_plan){.n = 1, .c = {{v->name, SIZE_MAX}}};
	else
		hl__plan_classes(l, p);
}
