/* A complete Pitboss bot in C, written against sdk/ABI.md alone.
 *
 * Build:  clang --target=wasm32 -O2 -nostdlib -Wl,--no-entry -o bot.wasm bot.c
 *
 * Strategy: bet the table minimum; double 10 or 11 when allowed; hit
 * below 17 (below 18 on a soft hand); stand otherwise.
 */
#include <stdint.h>

#define BUFFER_LEN 4096
static uint8_t buffer[BUFFER_LEN] __attribute__((aligned(16)));

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
    if (kind == KIND_BET) return read_i64(32); /* MIN */
    if (kind != KIND_ACT) return 0;            /* decline everything else */

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
