/* cs-prefetch.h — ask for a cache line that a loop will read a few items later */
#pragma once

/* GCC 12 drops __builtin_prefetch of an address it loaded from memory in the same loop
 * (the report's and the findings' walks over calls lost every one), so on x86-64 the
 * instruction itself. A prefetch never faults, whatever the address (NULL included). */
#if defined(__x86_64__) && defined(__GNUC__)
#define CS_PREFETCH(address) __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *) (address)))
#else
#define CS_PREFETCH(address) __builtin_prefetch (address)
#endif

/* Every cache line of [start, start + size). */
static inline void
cs_prefetch_bytes (const void *start, unsigned long size)
{
  for (unsigned long at = 0; at < size; at += 64)
    CS_PREFETCH ((const char *) start + at);
  CS_PREFETCH ((const char *) start + size - 1);
}
