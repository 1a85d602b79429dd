/*
 * The model: one cache line, a home that serialises requests for it, and
 * hardware threads running a policy as a small state machine.
 *
 * Events: every thread has at most one pending event (its next step), the
 * home at most one (serving the head of its FIFO). A binary heap of them,
 * keyed by (time, who), gives O(threads) memory and a deterministic order.
 * A thread that waits for the home, for an MCS hand-off or for the line to
 * change has no event: whoever ends its wait schedules it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define HOME (-1)
#define NONE (-1)

typedef uint64_t ps_t;	/* picoseconds */

enum req { REQ_READ, REQ_CAS, REQ_WRITE, REQ_FAR };

/* What a write does to the line's value when it is applied. */
enum effect { EFF_COUNT, EFF_LOCK_FAST, EFF_LOCK, EFF_UNLOCK, EFF_ENQUEUE, EFF_TICKET_TAKE, EFF_TICKET_NEXT };

/* What a CAS compares: the word as last seen (lockref, cas_loop), or "lock word zero". */
enum cas_cond { CAS_SEEN, CAS_LOCK_FREE };

/* Program counters of the policies' state machines. */
enum pc {
	PC_START,		/* begin an operation */
	PC_READ_DONE,		/* lockless: the first read came back */
	PC_CAS_DONE,		/* lockless: a CAS came back */
	PC_RELAXED,		/* lockless: cpu_relax over, retry */
	PC_FAA_DONE,
	PC_Q_FAST_DONE,		/* qspinlock: fast-path CAS came back */
	PC_Q_ENQUEUED,		/* tail exchanged */
	PC_Q_HEAD,		/* MCS turn: now spin on the lock word */
	PC_Q_HEAD_READ,		/* the head's read of the lock word came back */
	PC_Q_LOCKED,		/* the head set the locked byte */
	PC_CS_COUNT_DONE,	/* count updated under the lock */
	PC_CS_DONE,		/* critical section over: unlock */
	PC_UNLOCKED,		/* unlock store done */
	PC_T_TAKEN,		/* ticket taken */
	PC_T_READ,		/* ticket: read of serving came back */
	PC_THINK,		/* think time over */
};

struct thread {
	enum pc pc;
	int core, socket;		/* global core index, socket */
	uint64_t copy_epoch;		/* holds a valid shared copy iff == line.epoch */
	uint64_t seen_version;		/* the word as last observed */
	bool seen_locked;		/* the lock word (locked or queued) as last observed */
	uint32_t seen_serving;
	uint32_t ticket;
	bool ok;			/* last CAS succeeded */
	bool pred;			/* EFF_ENQUEUE: there was a predecessor */
	bool watching;
	bool turn;			/* the MCS predecessor has handed over the turn */
	unsigned int attempts;
	enum req req;			/* outstanding request to the home */
	enum effect eff;
	enum cas_cond cond;
	int mcs_next;			/* successor in the MCS queue */
	uint64_t ops;
};

struct event {
	ps_t t;
	int who;
};

struct sim {
	const struct sim_machine *m;
	enum sim_policy policy;
	unsigned int n, limit;
	struct thread *th;
	uint64_t rng;

	/* the line */
	int owner;			/* exclusive holder or NONE */
	uint64_t epoch;			/* bumps on every invalidation of shared copies */
	uint64_t version;		/* bumps on every change of the value */
	bool locked;			/* lock byte */
	int mcs_tail, mcs_head;		/* MCS queue (threads), NONE if empty */
	uint32_t next_ticket, serving;

	/* the home: FIFO of requesters, one outstanding request per thread at most */
	int *fifo;
	unsigned int fifo_head, fifo_len;
	ps_t home_free, sticky_until;
	bool home_scheduled;

	/* threads spinning on a valid copy, woken by the next invalidation */
	int *watchers;
	unsigned int nr_watchers;

	/* ps versions of the machine's times */
	ps_t p_smt, p_socket, p_cross, p_occ, p_sticky, p_far, p_local, p_relax, p_cs, p_think;

	struct event *heap;
	unsigned int heap_len;
	ps_t now;

	/* measurement */
	uint64_t done, warmup, target;
	ps_t t0;
	bool measuring;
	struct sim_result *res;
};

static ps_t ps(double ns)
{
	return ns <= 0 ? 0 : (ps_t)(ns * 1000.0 + 0.5);
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* base varied by +- jitter, uniformly, in whole picoseconds */
static ps_t jittered(struct sim *s, ps_t base)
{
	uint64_t span = (uint64_t)((double)base * s->m->jitter);

	if (!span)
		return base;
	return base - span + splitmix64(&s->rng) % (2 * span + 1);
}

/* ---- the event heap ---- */

static bool ev_less(const struct event *a, const struct event *b)
{
	return a->t < b->t || (a->t == b->t && a->who < b->who);
}

static void heap_push(struct sim *s, ps_t t, int who)
{
	unsigned int i = s->heap_len++;

	while (i) {
		unsigned int p = (i - 1) / 2;
		struct event e = { t, who };

		if (!ev_less(&e, &s->heap[p]))
			break;
		s->heap[i] = s->heap[p];
		i = p;
	}
	s->heap[i] = (struct event){ t, who };
}

static struct event heap_pop(struct sim *s)
{
	struct event top = s->heap[0], last = s->heap[--s->heap_len];
	unsigned int i = 0;

	for (;;) {
		unsigned int c = 2 * i + 1;

		if (c >= s->heap_len)
			break;
		if (c + 1 < s->heap_len && ev_less(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!ev_less(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->heap_len)
		s->heap[i] = last;
	return top;
}

static void at(struct sim *s, ps_t delay, int t, enum pc pc)
{
	s->th[t].pc = pc;
	heap_push(s, s->now + delay, t);
}

/* ---- distances ---- */

/* one-way line transfer between two threads' cores */
static ps_t xfer(const struct sim *s, int a, int b)
{
	if (s->th[a].core == s->th[b].core)
		return s->p_smt;
	return s->th[a].socket == s->th[b].socket ? s->p_socket : s->p_cross;
}

/* between a thread and the home (on socket 0) */
static ps_t hop(const struct sim *s, int t)
{
	return s->th[t].socket == 0 ? s->p_socket : s->p_cross;
}

/* ---- the line's value ---- */

static bool lock_word_zero(const struct sim *s)
{
	return !s->locked && s->mcs_tail == NONE;
}

static void observe(struct sim *s, int t)
{
	struct thread *th = &s->th[t];

	th->seen_version = s->version;
	th->seen_locked = !lock_word_zero(s);
	th->seen_serving = s->serving;
}

static void count_op(struct sim *s, int t);

static void apply(struct sim *s, int t, enum effect eff)
{
	struct thread *th = &s->th[t];

	s->version++;
	switch (eff) {
	case EFF_COUNT:
		break;
	case EFF_LOCK_FAST:
		s->locked = true;
		break;
	case EFF_LOCK:
		/* the head takes the lock and leaves the queue */
		s->locked = true;
		s->mcs_head = th->mcs_next;
		if (s->mcs_tail == t)
			s->mcs_tail = NONE;
		break;
	case EFF_UNLOCK:
		s->locked = false;
		break;
	case EFF_ENQUEUE:
		th->mcs_next = NONE;
		th->pred = s->mcs_tail != NONE;
		if (th->pred)
			s->th[s->mcs_tail].mcs_next = t;
		else
			s->mcs_head = t;
		s->mcs_tail = t;
		break;
	case EFF_TICKET_TAKE:
		th->ticket = s->next_ticket++;
		break;
	case EFF_TICKET_NEXT:
		s->serving++;
		break;
	}
	observe(s, t);
}

/* Every shared copy is gone: the spinners re-read (a request each). */
static void home_enqueue(struct sim *s, int t);

static void invalidate(struct sim *s, int writer)
{
	unsigned int n = s->nr_watchers;

	s->epoch++;
	s->nr_watchers = 0;
	for (unsigned int i = 0; i < n; i++) {
		int w = s->watchers[i];

		s->th[w].watching = false;
		if (w == writer)
			continue;
		s->th[w].req = REQ_READ;
		home_enqueue(s, w);
	}
}

static void watch(struct sim *s, int t)
{
	s->th[t].watching = true;
	s->watchers[s->nr_watchers++] = t;
}

/* ---- the home ---- */

static void home_schedule(struct sim *s)
{
	ps_t t = s->now;

	if (s->home_scheduled || !s->fifo_len)
		return;
	if (t < s->home_free)
		t = s->home_free;
	if (t < s->sticky_until)
		t = s->sticky_until;
	s->home_scheduled = true;
	heap_push(s, t, HOME);
}

static void home_enqueue(struct sim *s, int t)
{
	s->fifo[(s->fifo_head + s->fifo_len++) % s->n] = t;
	home_schedule(s);
}

/* The line becomes t's, exclusive, arriving after lat; t keeps it a while. */
static void grant_exclusive(struct sim *s, int t, ps_t lat)
{
	s->owner = t;
	invalidate(s, t);
	s->th[t].copy_epoch = s->epoch;
	s->sticky_until = s->now + lat + s->p_sticky;
}

static void home_serve(struct sim *s)
{
	int t = s->fifo[s->fifo_head];
	struct thread *th = &s->th[t];
	ps_t lat;
	bool ok;

	s->fifo_head = (s->fifo_head + 1) % s->n;
	s->fifo_len--;
	/* re-reads the invalidations below start queue behind this; scheduled once at the end */
	s->home_scheduled = true;
	s->home_free = s->now + s->p_occ;
	lat = s->owner != NONE && s->owner != t ? xfer(s, s->owner, t) : hop(s, t);

	switch (th->req) {
	case REQ_READ:
		if (s->owner != NONE && s->owner != t) {
			s->th[s->owner].copy_epoch = s->epoch;	/* downgraded, keeps a copy */
			s->owner = NONE;
		}
		th->copy_epoch = s->epoch;
		observe(s, t);
		break;
	case REQ_CAS:
		ok = th->cond == CAS_SEEN ? s->version == th->seen_version : lock_word_zero(s);
		th->ok = ok;
		if (ok || s->m->cas_fail_takes_line) {
			grant_exclusive(s, t, lat);
			if (ok)
				apply(s, t, th->eff);
			else
				observe(s, t);
		} else {
			/*
			 * Requested exclusive, so every copy is snooped away; but
			 * the failing core does not keep the line: only the value
			 * comes back, and the next CAS of anyone, the last
			 * winner's included, starts from the home again.
			 */
			s->owner = NONE;
			invalidate(s, NONE);
			observe(s, t);
		}
		break;
	case REQ_WRITE:
		grant_exclusive(s, t, lat);
		apply(s, t, th->eff);
		break;
	case REQ_FAR:
		/* executed at the home: the line leaves every core */
		s->owner = NONE;
		s->home_free = s->now + s->p_far;
		invalidate(s, NONE);
		apply(s, t, th->eff);
		lat = s->p_far;	/* posted (STADD): the thread waits only for the home to take it */
		break;
	}
	heap_push(s, s->now + lat, t);	/* th->pc already says where to resume */
	s->home_scheduled = false;
	home_schedule(s);
}

/* ---- accesses: local if the line is here, else a request to the home ---- */

static bool has_copy(const struct sim *s, int t)
{
	return s->owner == t || (s->owner == NONE && s->th[t].copy_epoch == s->epoch);
}

static void do_read(struct sim *s, int t, enum pc then)
{
	s->th[t].pc = then;
	if (has_copy(s, t)) {
		observe(s, t);
		heap_push(s, s->now + s->p_local, t);
		return;
	}
	s->th[t].req = REQ_READ;
	home_enqueue(s, t);
}

static void do_cas(struct sim *s, int t, enum cas_cond cond, enum effect eff, enum pc then)
{
	struct thread *th = &s->th[t];

	th->pc = then;
	th->cond = cond;
	th->eff = eff;
	if (s->owner == t) {
		th->ok = cond == CAS_SEEN ? s->version == th->seen_version : lock_word_zero(s);
		if (th->ok)
			apply(s, t, eff);
		else
			observe(s, t);
		heap_push(s, s->now + s->p_local, t);
		return;
	}
	th->req = REQ_CAS;
	home_enqueue(s, t);
}

static void do_write(struct sim *s, int t, enum effect eff, enum pc then)
{
	struct thread *th = &s->th[t];

	th->pc = then;
	th->eff = eff;
	if (s->owner == t) {
		apply(s, t, eff);
		heap_push(s, s->now + s->p_local, t);
		return;
	}
	th->req = REQ_WRITE;
	home_enqueue(s, t);
}

/* A fetch-add: far at the home if the machine has far atomics, else a near RMW. */
static void do_fetch_add(struct sim *s, int t, enum effect eff, enum pc then)
{
	if (!s->m->far_atomics) {
		do_write(s, t, eff, then);
		return;
	}
	s->th[t].pc = then;
	s->th[t].eff = eff;
	s->th[t].req = REQ_FAR;
	home_enqueue(s, t);
}

/* ---- the policies ---- */

static void op_done(struct sim *s, int t)
{
	count_op(s, t);
	at(s, jittered(s, s->p_think), t, PC_THINK);
}

static void record_attempts(struct sim *s, unsigned int a)
{
	struct sim_result *r = s->res;

	if (!s->measuring)
		return;
	r->successes++;
	r->attempts_sum += a;
	if (a > r->attempts_max)
		r->attempts_max = a;
	r->attempts_hist[a < SIM_ATTEMPT_BINS ? a : SIM_ATTEMPT_BINS - 1]++;
}

static void slow_path(struct sim *s, int t)
{
	s->th[t].turn = false;
	do_cas(s, t, CAS_LOCK_FREE, EFF_LOCK_FAST, PC_Q_FAST_DONE);
}

static void begin(struct sim *s, int t)
{
	struct thread *th = &s->th[t];

	switch (s->policy) {
	case SIM_ATOMIC_FAA:
		do_fetch_add(s, t, EFF_COUNT, PC_FAA_DONE);
		break;
	case SIM_LOCKREF_SPINLOCK_ONLY:
	case SIM_QSPINLOCK:
		slow_path(s, t);
		break;
	case SIM_TICKET:
		do_fetch_add(s, t, EFF_TICKET_TAKE, PC_T_TAKEN);
		break;
	default:
		th->attempts = 0;
		do_read(s, t, PC_READ_DONE);
		break;
	}
}

static void fall_back(struct sim *s, int t)
{
	if (s->measuring)
		s->res->fallbacks++;
	slow_path(s, t);
}

static void lockless_try(struct sim *s, int t)
{
	s->th[t].attempts++;
	do_cas(s, t, CAS_SEEN, EFF_COUNT, PC_CAS_DONE);
}

static void after_failed_cas(struct sim *s, int t)
{
	struct thread *th = &s->th[t];
	bool relax = false;

	if (s->policy != SIM_CAS_LOOP && th->seen_locked) {
		fall_back(s, t);
		return;
	}
	if (sim_policy_has_limit(s->policy) && th->attempts >= s->limit) {
		fall_back(s, t);
		return;
	}
	if (s->policy == SIM_LOCKREF_RELAX)
		relax = true;
	else if (s->policy == SIM_LOCKREF_RELAX_ALT)
		relax = th->attempts % 2 == 0;
	if (relax)
		at(s, s->p_relax, t, PC_RELAXED);
	else
		lockless_try(s, t);
}

static void step(struct sim *s, int t)
{
	struct thread *th = &s->th[t];

	switch (th->pc) {
	case PC_START:
	case PC_THINK:
		begin(s, t);
		break;
	case PC_READ_DONE:
		if (s->policy != SIM_CAS_LOOP && th->seen_locked)
			fall_back(s, t);
		else
			lockless_try(s, t);
		break;
	case PC_CAS_DONE:
		if (th->ok) {
			record_attempts(s, th->attempts);
			op_done(s, t);
		} else {
			after_failed_cas(s, t);
		}
		break;
	case PC_RELAXED:
		lockless_try(s, t);
		break;
	case PC_FAA_DONE:
		op_done(s, t);
		break;
	case PC_Q_FAST_DONE:
		if (th->ok)
			do_write(s, t, EFF_COUNT, PC_CS_COUNT_DONE);
		else
			do_write(s, t, EFF_ENQUEUE, PC_Q_ENQUEUED);
		break;
	case PC_Q_ENQUEUED:
		if (!th->pred || th->turn)
			do_read(s, t, PC_Q_HEAD_READ);
		else
			th->pc = PC_Q_HEAD;	/* the predecessor hands the turn over */
		break;
	case PC_Q_HEAD:
		do_read(s, t, PC_Q_HEAD_READ);
		break;
	case PC_Q_HEAD_READ:
		if (!s->locked && has_copy(s, t)) {
			do_write(s, t, EFF_LOCK, PC_Q_LOCKED);
		} else if (has_copy(s, t)) {
			th->pc = PC_Q_HEAD_READ;
			watch(s, t);
		} else {
			do_read(s, t, PC_Q_HEAD_READ);
		}
		break;
	case PC_Q_LOCKED:
		/* our MCS successor spins on its own node: one transfer hands it the turn */
		if (th->mcs_next != NONE) {
			struct thread *next = &s->th[th->mcs_next];

			if (next->pc == PC_Q_HEAD)
				heap_push(s, s->now + xfer(s, t, th->mcs_next), th->mcs_next);
			else
				next->turn = true;	/* its enqueue has not come back yet */
		}
		do_write(s, t, EFF_COUNT, PC_CS_COUNT_DONE);
		break;
	case PC_CS_COUNT_DONE:
		at(s, jittered(s, s->p_cs), t, PC_CS_DONE);
		break;
	case PC_CS_DONE:
		do_write(s, t, s->policy == SIM_TICKET ? EFF_TICKET_NEXT : EFF_UNLOCK, PC_UNLOCKED);
		break;
	case PC_UNLOCKED:
		op_done(s, t);
		break;
	case PC_T_TAKEN:
		do_read(s, t, PC_T_READ);
		break;
	case PC_T_READ:
		if (has_copy(s, t) && s->serving == th->ticket) {
			do_write(s, t, EFF_COUNT, PC_CS_COUNT_DONE);
		} else if (has_copy(s, t)) {
			th->pc = PC_T_READ;
			watch(s, t);
		} else {
			do_read(s, t, PC_T_READ);
		}
		break;
	}
}

static void count_op(struct sim *s, int t)
{
	s->done++;
	if (!s->measuring && s->done >= s->warmup) {
		s->measuring = true;
		s->t0 = s->now;
		for (unsigned int i = 0; i < s->n; i++)
			s->th[i].ops = 0;
		memset(s->res->attempts_hist, 0, sizeof(s->res->attempts_hist));
		s->res->successes = s->res->attempts_sum = s->res->attempts_max = 0;
		s->res->fallbacks = 0;
		return;
	}
	if (s->measuring) {
		s->th[t].ops++;
		s->res->ops++;
	}
}

/* ---- a run ---- */

int sim_run(const struct sim_machine *m, enum sim_policy policy, unsigned int threads,
	    unsigned int retry_limit, uint64_t ops, uint64_t seed, struct sim_result *res,
	    char *err, size_t errlen)
{
	struct sim s = { 0 };
	unsigned int cores = (unsigned int)(m->sockets * m->cores);
	int rc = 0;

	memset(res, 0, sizeof(*res));
	s.m = m;
	s.policy = policy;
	s.n = threads;
	s.limit = retry_limit;
	s.rng = seed;
	s.res = res;
	s.owner = s.mcs_tail = s.mcs_head = NONE;
	s.p_smt = ps(m->lat_smt);
	s.p_socket = ps(m->lat_socket);
	s.p_cross = ps(m->lat_cross);
	s.p_occ = ps(m->dir_occupancy);
	s.p_sticky = ps(m->stickiness);
	s.p_far = ps(m->far_occupancy);
	s.p_local = ps(m->local_ns);
	s.p_relax = ps(m->relax_ns);
	s.p_cs = ps(m->cs_ns);
	s.p_think = ps(m->think_ns);
	s.warmup = ops / 10 ? ops / 10 : 1;
	s.target = ops;
	s.th = calloc(threads, sizeof(*s.th));
	s.fifo = calloc(threads, sizeof(*s.fifo));
	s.watchers = calloc(threads, sizeof(*s.watchers));
	s.heap = calloc(threads + 1, sizeof(*s.heap));
	res->thread_ops = calloc(threads, sizeof(*res->thread_ops));
	res->threads = threads;
	if (!s.th || !s.fifo || !s.watchers || !s.heap || !res->thread_ops) {
		snprintf(err, errlen, "out of memory for %u threads", threads);
		rc = -1;
		goto out;
	}
	s.epoch = 1;
	/* placement as the bench's "auto": one thread per core, then the SMT siblings */
	for (unsigned int i = 0; i < threads; i++) {
		s.th[i].core = (int)(i % cores);
		s.th[i].socket = (int)(i % cores / (unsigned int)m->cores);
		s.th[i].mcs_next = NONE;
		/* start spread over one think time so that nobody is in lock-step */
		heap_push(&s, jittered(&s, s.p_think) * (i + 1) / threads, (int)i);
	}
	while (!s.measuring || res->ops < s.target) {
		struct event e;

		if (!s.heap_len) {
			snprintf(err, errlen, "the model stalled after %llu operations (a bug)",
				 (unsigned long long)s.done);
			rc = -1;
			goto out;
		}
		e = heap_pop(&s);
		s.now = e.t;
		res->events++;
		if (e.who == HOME)
			home_serve(&s);
		else
			step(&s, e.who);
	}
	res->elapsed_ns = (double)(s.now - s.t0) / 1000.0;
	for (unsigned int i = 0; i < threads; i++)
		res->thread_ops[i] = s.th[i].ops;
out:
	free(s.th);
	free(s.fifo);
	free(s.watchers);
	free(s.heap);
	if (rc)
		sim_result_free(res);
	return rc;
}

void sim_result_free(struct sim_result *res)
{
	free(res->thread_ops);
	res->thread_ops = NULL;
}

uint64_t sim_attempts_quantile(const struct sim_result *res, double q)
{
	uint64_t want, seen = 0;

	if (!res->successes)
		return 0;
	want = (uint64_t)(q * (double)res->successes);
	if (want >= res->successes)
		want = res->successes - 1;
	for (unsigned int i = 0; i < SIM_ATTEMPT_BINS; i++) {
		seen += res->attempts_hist[i];
		if (seen > want)
			return i == SIM_ATTEMPT_BINS - 1 ? res->attempts_max : i;
	}
	return res->attempts_max;
}

const char *const sim_policy_names[SIM_NR_POLICIES] = {
	[SIM_ATOMIC_FAA] = "atomic_faa",
	[SIM_CAS_LOOP] = "cas_loop",
	[SIM_LOCKREF] = "lockref",
	[SIM_LOCKREF_UNBOUNDED] = "lockref_unbounded",
	[SIM_LOCKREF_RELAX] = "lockref_relax",
	[SIM_LOCKREF_RELAX_ALT] = "lockref_relax_alt",
	[SIM_LOCKREF_SPINLOCK_ONLY] = "lockref_spinlock_only",
	[SIM_QSPINLOCK] = "qspinlock",
	[SIM_TICKET] = "ticket",
};

int sim_find_policy(const char *name)
{
	for (int i = 0; i < SIM_NR_POLICIES; i++) {
		if (strcmp(name, sim_policy_names[i]) == 0)
			return i;
	}
	return -1;
}

bool sim_policy_has_limit(enum sim_policy p)
{
	return p == SIM_LOCKREF || p == SIM_LOCKREF_RELAX || p == SIM_LOCKREF_RELAX_ALT;
}

bool sim_policy_has_attempts(enum sim_policy p)
{
	return p == SIM_CAS_LOOP || sim_policy_has_fallback(p);
}

bool sim_policy_has_fallback(enum sim_policy p)
{
	return p == SIM_LOCKREF || p == SIM_LOCKREF_UNBOUNDED || p == SIM_LOCKREF_RELAX ||
	       p == SIM_LOCKREF_RELAX_ALT;
}
