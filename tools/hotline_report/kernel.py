"""The kernel's published refcount timing figures (from reference.md, §refcount).

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
