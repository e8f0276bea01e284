/* A Pitboss bot in C with wasi-libc: printf is its log, getentropy and
 * clock_gettime come from the deterministic WASI subset (sdk/ABI.md,
 * "WASI subset").
 *
 * Build (a reactor: the host calls _initialize, never _start):
 *   clang --target=wasm32-wasi --sysroot=/usr -mexec-model=reactor -O2 \
 *         -o bot.wasm bot.c
 * (Debian's wasi-libc; elsewhere --sysroot=/path/to/wasi-sysroot.)
 *
 * Strategy: exactly sdk/examples/c/bot.c's, the same bot against the plain
 * ABI (a test compares their decisions): bet the table minimum; double 10
 * or 11 when allowed; hit below 17 (below 18 on a soft hand); stand
 * otherwise. The C library only adds a log line at each bet, with a random
 * byte and the virtual clock, which change no decision.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define BUFFER_LEN 4096
static uint8_t buffer[BUFFER_LEN] __attribute__((aligned(16)));
static int decisions;

/* Little-endian reads from the request (ABI.md, "Request layout"). */
static int64_t read_i64(int at) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | buffer[at + i];
    return (int64_t)v;
}

/* Decision kinds (ABI.md, "Decisions and answers"). */
enum {
    KIND_OBSERVE = 0,
    KIND_BET = 1,
    KIND_INSURANCE = 2,
    KIND_EVEN_MONEY = 3,
    KIND_ACT = 4,
    KIND_SIDE_BET = 5,
    KIND_BACK_BET = 6,
    KIND_BANKER_DOUBLE = 7,
    KIND_BANKER_DRAW = 8,
};
enum { STAND = 0, HIT = 1, DOUBLE = 2 };

__attribute__((export_name("pitboss_abi_version"))) int32_t abi_version(void) { return 1; }

__attribute__((export_name("pitboss_buffer"))) int32_t exchange_buffer(void) {
    return (int32_t)(uintptr_t)buffer;
}

__attribute__((export_name("pitboss_decide"))) int64_t decide(int32_t kind) {
    decisions++;
    if (kind == KIND_BET) {
        uint8_t coin = 0;
        getentropy(&coin, 1);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        int64_t bet = read_i64(32); /* MIN */
        printf("decision %d: coin %u, virtual time %lld ns, bet %lld\n", decisions, coin,
               (long long)now.tv_sec * 1000000000LL + now.tv_nsec, (long long)bet);
        return bet;
    }
    if (kind != KIND_ACT) return 0; /* decline everything else */

    uint8_t legal = buffer[7];
    int cards = buffer[9], hard = 0, aces = 0;
    for (int i = 0; i < cards; i++) {
        int rank = buffer[88 + i];
        hard += rank > 10 ? 10 : rank;
        aces += rank == 1;
    }
    int soft = aces && hard + 10 <= 21;
    int best = soft ? hard + 10 : hard;

    if ((best == 10 || best == 11) && (legal & (1 << DOUBLE))) return DOUBLE;
    if (best < (soft ? 18 : 17) && (legal & (1 << HIT))) return HIT;
    return STAND;
}
