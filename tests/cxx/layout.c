// SPDX-License-Identifier: MIT
/*
 * layout.c - the public types' sizes, alignments and offsets as C computes
 * them (layout.h's list), linked into the C++ test, which compares its own.
 */
#include "layout.h"

#define HL_LAYOUT_ITEM(e) {#e, (long long)(e)},

const struct hl_layout_value hl_c_layout[] = {HL_LAYOUT_LIST(HL_LAYOUT_ITEM)};
const size_t hl_c_layout_n = sizeof(hl_c_layout) / sizeof(hl_c_layout[0]);
