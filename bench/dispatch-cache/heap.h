// SPDX-License-Identifier: MIT
// glibc's heap in use, for bench/dispatch-cache.sh (mallinfo2 is not in Swift's Glibc module).
#include <malloc.h>
static inline unsigned long heap_in_use(void) { return mallinfo2().uordblks; }
