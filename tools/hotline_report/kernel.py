"""Published figures the report compares against (docs/sources.md), as data.

Refcount timing (§refcount) first, then contention: this project's machine
kind, the lockref threads' attempts and retry limit, ticket locks; last,
clearing memory (§clear_user and this machine kind's clearing figures).

LKDTM REFCOUNT_TIMING vs ATOMIC_TIMING: INT_MAX-1 increments, then
decrement-and-test down to zero, one thread.  Ratios are to the plain
atomic_t run.  The text is kept exactly as published ("1.004x"), the value
is for arithmetic.
"""

# source, machine, refcount (fast / fetch_add based), refcount_full (cmpxchg)
REFCOUNT_RATIOS = [
    {"source": "Kees Cook, 2017", "short": "Kees Cook 2017", "machine": "x86",
     "refcount": ("1.00x", 1.00), "refcount_full": ("1.76x", 1.76),
     "note": "atomic 82.25 G cycles, fast refcount 82.21 G, REFCOUNT_FULL 144.81 G"},
    {"source": "Will Deacon, 2019 (consolidation)", "short": "Will Deacon 2019", "machine": "x86",
     "refcount": ("1.004x", 1.004), "refcount_full": ("1.68x", 1.68),
     "note": "atomic 31.62 s, new 31.74 s, old FULL 53.20 s"},
    {"source": "Will Deacon, 2019 (consolidation)", "short": "Will Deacon 2019", "machine": "arm64",
     "refcount": ("1.048x", 1.048), "refcount_full": ("1.67x", 1.67),
     "note": "atomic 46.50 s, new 48.72 s, old FULL 77.58 s"},
    {"source": "Ard Biesheuvel", "short": "Ard Biesheuvel", "machine": "ThunderX2 (arm64, LSE), one core",
     "refcount": ("1.09x", 1.09), "refcount_full": ("1.64x\u2020", 86.6 / 52.7),
     "note": "atomic 52.7 s, LSE fast 57.2 s, FULL 86.6 s"},
]

FOOTNOTE = ("\u2020 computed here from the published times (FULL 86.6 s / atomic 52.7 s); "
            "the other ratios are as published.")

ARM_ARCHES = ("aarch64", "arm64", "armv8", "arm")


def is_arm(arch):
    a = str(arch or "").lower()
    return any(a.startswith(x) for x in ARM_ARCHES)


def reference_for(arch):
    """The published row the summary compares against for ARCH."""
    if is_arm(arch):
        return REFCOUNT_RATIOS[2]     # Deacon 2019, arm64
    return REFCOUNT_RATIOS[0]         # Cook 2017, x86


# -- contention: docs/sources.md, "This project's machine kind" and "lockref".
# Published text is kept as published; values are for arithmetic.

# One contended cache line, 2 threads, on the machine kind this project runs
# on.  Figures are per atomic read-modify-write; hotline-bench's contend op is
# a get AND a put (two of them), so its ops/s are about half these.
MACHINE_KIND = {
    "what": "x86-64 VM, Emerald Rapids class, 2 cores",
    "threads": 2,
    "xadd_mops": 62, "xadd_ns": 16,             # lock xadd, both threads together
    "cas_mops": 29, "cas_ns": 34,               # relaxed cmpxchg loop
    "cas_attempts": 1.17,                       # attempts per success, cmpxchg loop
    "xadd_ns_1t": 5.3, "cas_ns_1t": 9.8,        # single thread
    "rmw_per_op": 2,                            # contend: one op = get + put
}

# cmpxchg attempts per successful lockref update, from the kernel threads.
LOCKREF_ATTEMPTS = [
    {"machine": "ThunderX2", "load": "28 threads on one file", "text": "about 25", "value": 25,
     "detail": None},
    {"machine": "high-core x86", "load": "many threads on one file", "text": "3-4", "value": 3.5,
     "detail": "about double with SMT, worst case above 15"},
]

# The 2019 retry limit: tested limits and what the thread concluded.
RETRY_LIMIT = {
    "default": 100,
    "tested": [15, 50, 100, 200, 500],
    "verdict": "largely identical up to 100",
    "gain": "+60..70% on an open/close test",
    "machine": "ThunderX2",
}

# Other published contention figures the report quotes.
SPINLOCK_ONLY_THUNDERX2 = "2x throughput with lockref disabled (spinlock only) on ThunderX2"
QUEUED_VS_UNBOUNDED_224 = ("at 224 CPUs the queued spinlock path was about 2.5x faster than "
                           "the unbounded cmpxchg loop")
TICKET_GRAVITON2 = {
    "machine": "Graviton 2", "threads": [2, 4, 8, 16], "ns": [133, 170, 249, 428],
    "text": "133/170/249/428 ns per acquisition at 2/4/8/16 threads (about 21 ns per extra waiter)",
}
OPEN3_CPU_RELAX = {
    "machine": "Cascade Lake 2x24x2", "test": "will-it-scale open3 at 96 processes",
    "before": 609481, "after": 1427170, "text": "+134%",
    "what": "removing cpu_relax from the lockref loop (2023)",
}


# -- clearing memory: docs/sources.md, "clear_user" and "This project's machine
# kind".  Text as published; values for arithmetic.

# The kernel's 2022 clear_user work, measured on its author's machine.
CLEAR_USER_DD = {"what": "dd if=/dev/zero of=/dev/null bs=1M", "block": 1 << 20,
                 "before": 23.9, "after": 32.9,
                 "text": "23.9 GB/s with the old clear_user, 32.9 GB/s with rep stosb"}
SPARSE_TMPFS = {"what": "reading a 1 TB sparse tmpfs file",
                "text": "57 s clearing with the old clear_user versus 44 s copying the zero page"}

# Clearing on this project's machine kind (indicative).
ZERO_MACHINE_KIND = {
    "what": "x86-64 VM, Emerald Rapids class",
    "glibc_l1": "190-218 GB/s",                 # glibc memset, L1-resident
    "glibc_l2": "48-54 GB/s",                   # L2-sized
    "big": "2 GiB",                             # the large buffer of the figures below
    "glibc_big": 12, "nontemporal_big": 24, "memcpy_zero_page_big": 8.9, "read_dev_zero_big": 9,
    "read_dev_zero_16": 114,                    # ns per call at 16 B
    "rep_stosb": "3-4x slower than vector stores at 256 B and catches up around 2-4 KiB "
                 "(glibc switches at 2048 B)",
}


# -- hotline-sim's presets: what was published for the machine each one models
# (docs/sources.md, "lockref" and "Other machines"), for the anchor table of the
# report's "Many-core machines (simulated)" section.
GRAVITON2_FAA = {"threads": [2, 16], "ns": [8.5, 9.4],
                 "text": "8.5 \u2192 9.4 ns, flat from 2 to 16 threads"}
GRAVITON2_CAS = {"threads": [2, 16], "ns": [26, 40],
                 "text": "26 \u2192 40 ns from 2 to 16 threads"}

# Preset name -> {anchor: published text}; a preset named NAME-something
# (e.g. thunderx2-224) takes NAME's.  Anchors: attempts28 (cmpxchg attempts
# per success at 28 threads), limit (lockref with the retry limit over the
# unbounded loop), spinlock (the lock alone over the unbounded loop),
# atomic_faa, cas_loop and ticket (ns at 2/4/8/16 threads).
SIM_PUBLISHED = {
    "thunderx2": {
        "machine": "ThunderX2",
        "attempts28": f"{LOCKREF_ATTEMPTS[0]['text']} ({LOCKREF_ATTEMPTS[0]['load']})",
        "limit": f"{RETRY_LIMIT['gain']} (1.6\u20131.7x; thread count not published)",
        "spinlock": "about 2.5x at 224 CPUs (2 x 28 x SMT4: the queued spinlock path); "
                    "2x with lockref disabled",
    },
    "x86-server": {
        "machine": "high-core x86",
        "attempts28": f"{LOCKREF_ATTEMPTS[1]['text']} on average ({LOCKREF_ATTEMPTS[1]['detail']})",
    },
    "graviton2-lse": {
        "machine": "Graviton 2",
        "atomic_faa": GRAVITON2_FAA["text"],
        "cas_loop": GRAVITON2_CAS["text"],
        "ticket": f"{'/'.join(str(n) for n in TICKET_GRAVITON2['ns'])} ns at "
                  f"{'/'.join(str(t) for t in TICKET_GRAVITON2['threads'])} threads",
    },
}


def sim_published(preset):
    """The published figures for hotline-sim preset PRESET ({} when none)."""
    p = str(preset or "")
    for name, figures in SIM_PUBLISHED.items():
        if p == name or p.startswith(name + "-"):
            return figures
    return {}
