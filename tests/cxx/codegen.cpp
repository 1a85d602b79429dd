// SPDX-License-Identifier: MIT
/*
 * codegen.cpp - tests/build/codegen.c's functions compiled as C++, so that
 * tests/build/codegen.sh judges the machine code C++ users get from the
 * same inline fast paths. The headers come first, in C++ (their include
 * guards keep codegen.c's own includes out); codegen.c's functions are
 * given C linkage, so that they keep the names the script looks for.
 */
#include <hotline/qspinlock.h>
#include <hotline/rcuref.h>
#include <hotline/refcount.h>

extern "C" {
#include "../build/codegen.c"
}
