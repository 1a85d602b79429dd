/*
 * The model: one cache line, a home that serialises requests for it, and
 * hardware threads running a policy as a small state machine.
 *
 * The home's requests wait in one FIFO per socket (the socket's ingress:
 * the local ring, or the link from another socket), and its arbiter takes
 * turns between the non-empty ones, one request each; with home_rr off
 * there is one FIFO for all, served in the order the requests came. With
 * one FIFO a lockless loop whose failed CAS leaves the line at the home
 * starves the far socket: after every success the near threads' retries,
 * fresh from a shorter round trip, are queued first, so the first CAS to
 * see the new value is always a near thread's.
 *
 * Events: every thread has at most one pending event (its next step), kept
 * in a binary heap keyed by (time, thread) packed into one word, which gives
 * O(threads) memory and a deterministic order. The home has at most one
 * pending service (the head of the queue its arbiter picks when it serves,
 * not before); it is kept beside the heap rather
 * than in it, since it is the most frequent event of all and is compared
 * against the heap's top in one step, winning ties as if it were thread -1.
 * A thread that waits for the home, for an MCS hand-off or for the line to
 * change has no event: whoever ends its wait schedules it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define NONE (-1)

typedef uint64_t ps_t; /* picoseconds */

/*
 * An event's key: its time in the high bits, the thread in the low ones, so
 * one integer comparison orders by time, then by thread. The time then has
 * 64 - WHO_BITS bits: about 4500 s of simulated time, checked in sim_run.
 */
#define WHO_BITS 12
#define WHO_MASK ((UINT64_C(1) << WHO_BITS) - 1)
#define MAX_PS	 (UINT64_MAX >> WHO_BITS)

enum req { REQ_READ, REQ_CAS, REQ_WRITE, REQ_FAR };

/* What a write does to the line's value when it is applied. */
enum effect {
	EFF_COUNT,
	EFF_LOCK_FAST,
	EFF_LOCK,
	EFF_UNLOCK,
	EFF_ENQUEUE,
	EFF_TICKET_TAKE,
	EFF_TICKET_NEXT
};

/* What a CAS compares: the word as last seen (lockref, cas_loop), or "lock word zero". */
enum cas_cond { CAS_SEEN, CAS_LOCK_FREE };

/* Program counters of the policies' state machines. */
enum pc {
	PC_START,     /* begin an operation */
	PC_READ_DONE, /* lockless: the first read came back */
	PC_CAS_DONE,  /* lockless: a CAS came back */
	PC_RELAXED,   /* lockless: cpu_relax over, retry */
	PC_FAA_DONE,
	PC_Q_FAST_DONE,	  /* qspinlock: fast-path CAS came back */
	PC_Q_ENQUEUED,	  /* tail exchanged */
	PC_Q_HEAD,	  /* MCS turn: now spin on the lock word */
	PC_Q_HEAD_READ,	  /* the head's read of the lock word came back */
	PC_Q_LOCKED,	  /* the head set the locked byte */
	PC_CS_COUNT_DONE, /* count updated under the lock */
	PC_CS_DONE,	  /* critical section over: unlock */
	PC_UNLOCKED,	  /* unlock store done */
	PC_T_TAKEN,	  /* ticket taken */
	PC_T_READ,	  /* ticket: read of serving came back */
	PC_THINK,	  /* think time over */
};

struct thread {
	enum pc pc;
	int core, socket;      /* global core index, socket */
	unsigned int queue;    /* the home's queue its requests join */
	uint64_t copy_epoch;   /* holds a valid shared copy iff == line.epoch */
	uint64_t seen_version; /* the word as last observed */
	bool seen_locked;      /* the lock word (locked or queued) as last observed */
	uint32_t seen_serving;
	uint32_t ticket;
	bool ok;   /* last CAS succeeded */
	bool pred; /* EFF_ENQUEUE: there was a predecessor */
	bool watching;
	bool far_wait; /* REQ_FAR: the result is used, so the thread waits for it */
	bool put;      /* the lookup policies: the next update is the put (else the get) */
	ps_t arrive;   /* a watcher whose read is still on its way: when it lands */
	bool turn;     /* the MCS predecessor has handed over the turn */
	unsigned int attempts;
	enum req req; /* outstanding request to the home */
	enum effect eff;
	enum cas_cond cond;
	int mcs_next; /* successor in the MCS queue */
	uint64_t ops;
};

typedef uint64_t event_t; /* time << WHO_BITS | thread */

/* One of the home's request queues: a ring of mask + 1 >= its threads entries. */
struct homeq {
	int *ring;
	unsigned int head, len, mask;
};

struct sim {
	const struct sim_machine *m;
	enum sim_policy policy;
	const struct subject_facts *facts; /* the policy's */
	unsigned int n, limit;
	struct thread *th;
	uint64_t rng;

	/* the line */
	int owner;		/* exclusive holder or NONE */
	uint64_t epoch;		/* bumps on every invalidation of shared copies */
	uint64_t version;	/* bumps on every change of the value */
	bool locked;		/* lock byte */
	int mcs_tail, mcs_head; /* MCS queue (threads), NONE if empty */
	uint32_t next_ticket, serving;

	/*
	 * the home: one FIFO of requesters per ingress (a socket's, or with
	 * home_rr off a single one for all), one outstanding request per thread
	 * at most; the arbiter takes turns between the non-empty ones
	 */
	struct homeq *queues;
	unsigned int nr_queues, rr, queued; /* rr: the queue to look at first */
	int *slots;			    /* the queues' rings, one after the other */
	ps_t home_free, sticky_until;
	ps_t home_at; /* when the home serves next, if home_scheduled */
	bool home_scheduled;

	/* threads spinning on a valid copy, woken by the next invalidation */
	int *watchers;
	unsigned int nr_watchers;

	/* ps versions of the machine's times */
	ps_t p_smt, p_socket, p_cross, p_occ, p_sticky, p_far, p_local, p_relax, p_cs, p_think;
	uint64_t f_jitter, f_lat_jitter; /* the jitters in 1/65536ths */

	event_t *heap;
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

/*
 * base varied by +- fraction (in 1/65536ths), uniformly, in whole
 * picoseconds: a multiply, not a division, as this is on every transfer.
 * Both factors stay below 2^32 (times are bounded by 1e6 ns = 1e9 ps, the
 * fraction by 0.9), and the bias of the multiply is below 2^-32.
 */
static ps_t vary(struct sim *s, ps_t base, uint64_t fraction)
{
	uint64_t span = base * fraction >> 16;

	if (!span)
		return base;
	return base - span + (((splitmix64(&s->rng) >> 32) * (2 * span + 1)) >> 32);
}

/* think and critical-section times */
static ps_t jittered(struct sim *s, ps_t base)
{
	return vary(s, base, s->f_jitter);
}

/*
 * A line transfer. Without variation the home's FIFO turns a contended loop
 * into an exact round-robin; real transfers differ by the cores' places on
 * the ring or mesh and by queueing on the way.
 */
static ps_t transfer(struct sim *s, ps_t base)
{
	return vary(s, base, s->f_lat_jitter);
}

/* ---- the event heap ---- */

static void heap_push(struct sim *s, ps_t t, int who)
{
	event_t e = t << WHO_BITS | (event_t)who;
	unsigned int i = s->heap_len++;

	s->heap[i + 1] = UINT64_MAX; /* the sentinel heap_pop reads */

	while (i) {
		unsigned int p = (i - 1) / 2;

		if (e >= s->heap[p])
			break;
		s->heap[i] = s->heap[p];
		i = p;
	}
	s->heap[i] = e;
}

/*
 * Floyd's pop: walk the hole at the root down to a leaf along the smaller
 * children (one branch-free comparison per level, thanks to the UINT64_MAX
 * sentinel kept after the last element), then sift the last element up
 * from there, which rarely takes a step. About half the comparisons of the
 * textbook sift-down, and no unpredictable branch on the way down.
 */
static event_t heap_pop(struct sim *s)
{
	event_t top = s->heap[0], last;
	unsigned int i = 0, n = --s->heap_len;

	last = s->heap[n];
	s->heap[n] = UINT64_MAX;
	for (;;) {
		unsigned int c = 2 * i + 1;

		if (c >= n)
			break;
		c += s->heap[c + 1] < s->heap[c];
		s->heap[i] = s->heap[c];
		i = c;
	}
	while (i) {
		unsigned int p = (i - 1) / 2;

		if (last >= s->heap[p])
			break;
		s->heap[i] = s->heap[p];
		i = p;
	}
	s->heap[i] = last;
	if (!n)
		s->heap[0] = UINT64_MAX;
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
	case EFF_COUNT: break;
	case EFF_LOCK_FAST: s->locked = true; break;
	case EFF_LOCK:
		/* the head takes the lock and leaves the queue */
		s->locked = true;
		s->mcs_head = th->mcs_next;
		if (s->mcs_tail == t)
			s->mcs_tail = NONE;
		break;
	case EFF_UNLOCK: s->locked = false; break;
	case EFF_ENQUEUE:
		th->mcs_next = NONE;
		th->pred = s->mcs_tail != NONE;
		if (th->pred)
			s->th[s->mcs_tail].mcs_next = t;
		else
			s->mcs_head = t;
		s->mcs_tail = t;
		break;
	case EFF_TICKET_TAKE: th->ticket = s->next_ticket++; break;
	case EFF_TICKET_NEXT: s->serving++; break;
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
		struct thread *th = &s->th[w];

		th->watching = false;
		if (w == writer)
			continue;
		if (th->arrive > s->now) {
			/* its read lands on a dead copy and it reads again (step) */
			heap_push(s, th->arrive, w);
			continue;
		}
		th->req = REQ_READ;
		home_enqueue(s, w);
	}
}

/* t spins on its valid copy from time arrive on, until the next invalidation */
static void watch(struct sim *s, int t, ps_t arrive)
{
	s->th[t].watching = true;
	s->th[t].arrive = arrive;
	s->watchers[s->nr_watchers++] = t;
}

/* ---- the home ---- */

static void home_schedule(struct sim *s)
{
	ps_t t = s->now;

	if (s->home_scheduled || !s->queued)
		return;
	if (t < s->home_free)
		t = s->home_free;
	if (t < s->sticky_until)
		t = s->sticky_until;
	s->home_scheduled = true;
	s->home_at = t;
}

static void home_enqueue(struct sim *s, int t)
{
	struct homeq *q = &s->queues[s->th[t].queue];

	q->ring[(q->head + q->len++) & q->mask] = t;
	s->queued++;
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

/* The request the home serves next: the head of the first non-empty queue from rr on. */
static int home_next(struct sim *s)
{
	unsigned int i = s->rr;
	struct homeq *q;
	int t;

	/* round-robin: the first non-empty queue from rr on, and rr moves past it */
	while (!s->queues[i].len)
		i = i + 1 < s->nr_queues ? i + 1 : 0;
	s->rr = i + 1 < s->nr_queues ? i + 1 : 0;
	q = &s->queues[i];
	t = q->ring[q->head];
	q->head = (q->head + 1) & q->mask;
	q->len--;
	s->queued--;
	return t;
}

/* t's read, landing after lat. Returns false when t now watches the line (no event). */
static bool serve_read(struct sim *s, int t, ps_t lat)
{
	struct thread *th = &s->th[t];

	if (s->owner != NONE && s->owner != t) {
		s->th[s->owner].copy_epoch = s->epoch; /* downgraded, keeps a copy */
		s->owner = NONE;
	}
	th->copy_epoch = s->epoch;
	observe(s, t);
	if (th->pc == PC_T_READ && s->serving != th->ticket) {
		/*
		 * A ticket waiter that is not next: on landing it would find
		 * its copy valid and watch it, unless the line changes first.
		 * Watch from now, landing later, and save the event (there
		 * are hundreds of them per release at 224 threads).
		 */
		watch(s, t, s->now + lat);
		return false;
	}
	return true;
}

static void serve_cas(struct sim *s, int t, ps_t lat)
{
	struct thread *th = &s->th[t];
	bool ok = th->cond == CAS_SEEN ? s->version == th->seen_version : lock_word_zero(s);

	th->ok = ok;
	if (ok || s->m->cas_fail_takes_line) {
		grant_exclusive(s, t, lat);
		if (ok)
			apply(s, t, th->eff);
		else
			observe(s, t);
	} else {
		/*
		 * Requested exclusive, so every copy is snooped away; but the
		 * failing core does not keep the line: only the value comes
		 * back, and the next CAS of anyone, the last winner's
		 * included, starts from the home again.
		 */
		s->owner = NONE;
		invalidate(s, NONE);
		observe(s, t);
	}
}

/* A far atomic, executed at the home: the line leaves every core. Returns t's wait. */
static ps_t serve_far(struct sim *s, int t, ps_t lat)
{
	struct thread *th = &s->th[t];

	s->owner = NONE;
	s->home_free = s->now + s->p_far;
	invalidate(s, NONE);
	apply(s, t, th->eff);
	/*
	 * Posted (STADD): the thread waits only for the home to take it. A
	 * fetch-add whose result is used (LDADD) waits for the value too.
	 */
	return th->far_wait ? s->p_far + lat : s->p_far;
}

static void home_serve(struct sim *s)
{
	int t = home_next(s);
	struct thread *th = &s->th[t];
	bool resumes = true;
	ps_t lat;

	/* re-reads the invalidations below start queue behind this; scheduled once at the end */
	s->home_scheduled = true;
	s->home_free = s->now + s->p_occ;
	lat = transfer(s, s->owner != NONE && s->owner != t ? xfer(s, s->owner, t) : hop(s, t));
	switch (th->req) {
	case REQ_READ: resumes = serve_read(s, t, lat); break;
	case REQ_CAS: serve_cas(s, t, lat); break;
	case REQ_WRITE:
		grant_exclusive(s, t, lat);
		apply(s, t, th->eff);
		break;
	case REQ_FAR: lat = serve_far(s, t, lat); break;
	}
	if (resumes)
		heap_push(s, s->now + lat, t); /* th->pc already says where to resume */
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

/*
 * A fetch-add: far at the home if the machine has far atomics, else a near
 * RMW. wait: its result is used (LDADD, not STADD), so a far one returns the
 * value to the thread before it goes on.
 */
static void do_fetch_add_as(struct sim *s, int t, enum effect eff, enum pc then, bool wait)
{
	if (!s->m->far_atomics) {
		do_write(s, t, eff, then);
		return;
	}
	s->th[t].far_wait = wait;
	s->th[t].pc = then;
	s->th[t].eff = eff;
	s->th[t].req = REQ_FAR;
	home_enqueue(s, t);
}

static void do_fetch_add(struct sim *s, int t, enum effect eff, enum pc then)
{
	do_fetch_add_as(s, t, eff, then, false);
}

/* ---- the policies ---- */

static void op_done(struct sim *s, int t)
{
	s->th[t].put = !s->th[t].put; /* a get, then a put (read by the lookup policies) */
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
	case SIM_ATOMIC_FAA: do_fetch_add(s, t, EFF_COUNT, PC_FAA_DONE); break;
	case SIM_LOCKREF_SPINLOCK_ONLY:
	case SIM_QSPINLOCK: slow_path(s, t); break;
	case SIM_TICKET: do_fetch_add(s, t, EFF_TICKET_TAKE, PC_T_TAKEN); break;
	/* get and put alike: the zones are checked on the value the add returns */
	case SIM_RCUREF: do_fetch_add_as(s, t, EFF_COUNT, PC_FAA_DONE, true); break;
	case SIM_REFCOUNT_INC_NOT_ZERO:
		if (th->put) { /* dec_and_test: one fetch-add whose result is used */
			do_fetch_add_as(s, t, EFF_COUNT, PC_FAA_DONE, true);
			break;
		}
		/* the get: the lockless loop below, a plain CAS loop (no lock to see) */
		th->attempts = 0;
		do_read(s, t, PC_READ_DONE);
		break;
	default: /* the loops; lockref_get_not_dead's get and put are both lockref loops */
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

	if (s->facts->kind == SUBJECT_LOCKREF && th->seen_locked) {
		fall_back(s, t);
		return;
	}
	if (s->facts->fallback && th->attempts >= s->limit) {
		fall_back(s, t);
		return;
	}
	if (s->facts->relax == SUBJECT_RELAX_EVERY)
		relax = true;
	else if (s->facts->relax == SUBJECT_RELAX_EVERY_OTHER)
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
	case PC_THINK: begin(s, t); break;
	case PC_READ_DONE:
		if (s->facts->kind == SUBJECT_LOCKREF && th->seen_locked)
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
	case PC_RELAXED: lockless_try(s, t); break;
	case PC_FAA_DONE: op_done(s, t); break;
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
			th->pc = PC_Q_HEAD; /* the predecessor hands the turn over */
		break;
	case PC_Q_HEAD: do_read(s, t, PC_Q_HEAD_READ); break;
	case PC_Q_HEAD_READ:
		if (!s->locked && has_copy(s, t)) {
			do_write(s, t, EFF_LOCK, PC_Q_LOCKED);
		} else if (has_copy(s, t)) {
			th->pc = PC_Q_HEAD_READ;
			watch(s, t, 0);
		} else {
			do_read(s, t, PC_Q_HEAD_READ);
		}
		break;
	case PC_Q_LOCKED:
		/* our MCS successor spins on its own node: one transfer hands it the turn */
		if (th->mcs_next != NONE) {
			struct thread *next = &s->th[th->mcs_next];

			if (next->pc == PC_Q_HEAD)
				heap_push(s, s->now + transfer(s, xfer(s, t, th->mcs_next)),
					  th->mcs_next);
			else
				next->turn = true; /* its enqueue has not come back yet */
		}
		do_write(s, t, EFF_COUNT, PC_CS_COUNT_DONE);
		break;
	case PC_CS_COUNT_DONE: at(s, jittered(s, s->p_cs), t, PC_CS_DONE); break;
	case PC_CS_DONE:
		do_write(s, t, s->policy == SIM_TICKET ? EFF_TICKET_NEXT : EFF_UNLOCK, PC_UNLOCKED);
		break;
	case PC_UNLOCKED: op_done(s, t); break;
	case PC_T_TAKEN: do_read(s, t, PC_T_READ); break;
	case PC_T_READ:
		if (has_copy(s, t) && s->serving == th->ticket) {
			do_write(s, t, EFF_COUNT, PC_CS_COUNT_DONE);
		} else if (has_copy(s, t)) {
			th->pc = PC_T_READ;
			watch(s, t, 0);
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

/* The run's state before any event: the costs in picoseconds, the line unowned. */
static void setup(struct sim *s, const struct sim_machine *m, enum sim_policy policy,
		  unsigned int threads, unsigned int retry_limit, uint64_t ops, uint64_t seed,
		  struct sim_result *res)
{
	s->m = m;
	s->policy = policy;
	s->facts = &sim_policies[policy].facts;
	s->n = threads;
	s->limit = retry_limit;
	s->rng = seed;
	s->res = res;
	s->owner = s->mcs_tail = s->mcs_head = NONE;
	s->p_smt = ps(m->lat_smt);
	s->p_socket = ps(m->lat_socket);
	s->p_cross = ps(m->lat_cross);
	s->p_occ = ps(m->dir_occupancy);
	s->p_sticky = ps(m->stickiness);
	s->p_far = ps(m->far_occupancy);
	s->p_local = ps(m->local_ns);
	s->p_relax = ps(m->relax_ns);
	s->p_cs = ps(m->cs_ns);
	s->p_think = ps(m->think_ns);
	s->f_jitter = (uint64_t)(m->jitter * 65536.0 + 0.5);
	s->f_lat_jitter = (uint64_t)(m->lat_jitter * 65536.0 + 0.5);
	s->warmup = ops / 10 ? ops / 10 : 1;
	s->target = ops;
	s->epoch = 1;
}

/* The home's rings, each sized to a power of two of its threads (counted in mask). */
static int alloc_rings(struct sim *s)
{
	size_t slots = 0;

	for (unsigned int q = 0; q < s->nr_queues; q++) {
		unsigned int size = 1;

		while (size < s->queues[q].mask)
			size *= 2;
		s->queues[q].mask = size - 1;
		slots += size;
	}
	s->slots = calloc(slots, sizeof(*s->slots));
	if (!s->slots)
		return -1;
	slots = 0;
	for (unsigned int q = 0; q < s->nr_queues; q++) {
		s->queues[q].ring = s->slots + slots;
		slots += s->queues[q].mask + 1;
	}
	return 0;
}

/* The arrays for s->n threads, each thread placed and the home's rings sized; -1: no memory. */
static int alloc_threads(struct sim *s)
{
	unsigned int threads = s->n, cores = (unsigned int)(s->m->sockets * s->m->cores);

	s->th = calloc(threads, sizeof(*s->th));
	/* the home's queues: one per socket when it takes turns between them, else one */
	s->nr_queues = s->m->home_rr ? (unsigned int)s->m->sockets : 1;
	s->queues = calloc(s->nr_queues, sizeof(*s->queues));
	s->watchers = calloc(threads, sizeof(*s->watchers));
	s->heap = calloc(threads + 2, sizeof(*s->heap)); /* and a sentinel */
	s->res->thread_ops = calloc(threads, sizeof(*s->res->thread_ops));
	s->res->threads = threads;
	if (!s->th || !s->queues || !s->watchers || !s->heap || !s->res->thread_ops)
		return -1;
	/* placement as the bench's "auto": one thread per core, then the SMT siblings */
	for (unsigned int i = 0; i < threads; i++) {
		s->th[i].core = (int)(i % cores);
		s->th[i].socket = (int)(i % cores / (unsigned int)s->m->cores);
		s->th[i].queue = s->nr_queues > 1 ? (unsigned int)s->th[i].socket : 0;
		s->queues[s->th[i].queue].mask++; /* counted here, a ring's size in alloc_rings */
	}
	return alloc_rings(s);
}

/* Every thread's first event, then events until the target is measured; -1 on a failure. */
static int run_events(struct sim *s, char *err, size_t errlen)
{
	s->heap[0] = UINT64_MAX;
	for (unsigned int i = 0; i < s->n; i++) {
		s->th[i].mcs_next = NONE;
		/* start spread over one think time so that nobody is in lock-step */
		heap_push(s, jittered(s, s->p_think) * (i + 1) / s->n, (int)i);
	}
	while (!s->measuring || s->res->ops < s->target) {
		/* an empty heap holds only its sentinel, later than any time */
		if (s->home_scheduled && s->home_at <= s->heap[0] >> WHO_BITS) {
			s->now = s->home_at;
			home_serve(s);
		} else if (s->heap_len) {
			event_t e = heap_pop(s);

			s->now = e >> WHO_BITS;
			step(s, (int)(e & WHO_MASK));
		} else {
			snprintf(err, errlen, "the model stalled after %llu operations (a bug)",
				 (unsigned long long)s->done);
			return -1;
		}
		s->res->events++;
		if (s->now > MAX_PS / 2) {
			snprintf(err, errlen, "more than %.0f s of simulated time: fewer --ops",
				 (double)(MAX_PS / 2) / 1e12);
			return -1;
		}
	}
	return 0;
}

int sim_run(const struct sim_machine *m, enum sim_policy policy, unsigned int threads,
	    unsigned int retry_limit, uint64_t ops, uint64_t seed, struct sim_result *res,
	    char *err, size_t errlen)
{
	struct sim s = {0};
	int rc;

	memset(res, 0, sizeof(*res));
	if (threads < 1 || threads > WHO_MASK + 1) {
		snprintf(err, errlen, "%u threads: the model takes 1 to %llu", threads,
			 (unsigned long long)WHO_MASK + 1);
		return -1;
	}
	setup(&s, m, policy, threads, retry_limit, ops, seed, res);
	rc = alloc_threads(&s);
	if (rc)
		snprintf(err, errlen, "out of memory for %u threads", threads);
	else
		rc = run_events(&s, err, errlen);
	if (!rc) {
		res->elapsed_ns = (double)(s.now - s.t0) / 1000.0;
		for (unsigned int i = 0; i < threads; i++)
			res->thread_ops[i] = s.th[i].ops;
	}
	free(s.th);
	free(s.queues);
	free(s.slots);
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

uint64_t sim_run_seed(uint64_t seed, enum sim_policy policy, unsigned int threads)
{
	return seed * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)policy << 40) ^ threads;
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
