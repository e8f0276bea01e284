/* A Pitboss bot in C with wasi-libc: printf is its log, getentropy and
 * clock_gettime come from the deterministic WASI subset (sdk/ABI.md,
 * "WASI subset").
 *
 * Build (a reactor: the host calls _initialize, never _start):
 *   clang --target=wasm32-wasi --sysroot=/usr -mexec-model=reactor -O2 \
 *         -o bot.wasm bot.c
 * (Debian's wasi-libc; elsewhere --sysroot=/path/to/wasi-sysroot.)
 *
 * Strategy: bet the table minimum, or twice it when a random byte is odd;
 * hit below 17, stand otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define BUFFER_LEN 4096
static uint8_t buffer[BUFFER_LEN] __attribute__((aligned(16)));
static int decisions;

static int64_t read_i64(int at) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | buffer[at + i];
    return (int64_t)v;
}

__attribute__((export_name("pitboss_abi_version"))) int32_t abi_version(void) { return 1; }

__attribute__((export_name("pitboss_buffer"))) int32_t exchange_buffer(void) {
    return (int32_t)(uintptr_t)buffer;
}

__attribute__((export_name("pitboss_decide"))) int64_t decide(int32_t kind) {
    decisions++;
    if (kind == 1) { /* BET */
        int64_t min = read_i64(32), max = read_i64(40);
        uint8_t coin = 0;
        getentropy(&coin, 1);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        int64_t bet = (coin & 1) && 2 * min <= max ? 2 * min : min;
        printf("decision %d: coin %u, virtual time %lld ns, bet %lld\n", decisions, coin,
               (long long)now.tv_sec * 1000000000LL + now.tv_nsec, (long long)bet);
        return bet;
    }
    if (kind != 4) return 0; /* decline everything else */
    int cards = buffer[9], total = 0;
    for (int i = 0; i < cards; i++) total += buffer[88 + i] > 10 ? 10 : buffer[88 + i];
    return total < 17 && (buffer[7] & 2) ? 1 : 0;
}
