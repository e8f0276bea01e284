//! A complete Pitboss bot in Zig, written against sdk/ABI.md alone.
//!
//! Build (Zig from PyPI: `pip install ziglang`):
//!   python3 -m ziglang build-exe bot.zig -target wasm32-freestanding -fno-entry -rdynamic -O ReleaseSmall
//!
//! Strategy: bet twice the table minimum when affordable; hit hard
//! totals below 13 and soft totals below 18; stand otherwise.

var buffer: [4096]u8 align(16) = undefined;

fn readI64(at: usize) i64 {
    return @bitCast(buffer[at..][0..8].*);
}

export fn pitboss_abi_version() i32 {
    return 1;
}

export fn pitboss_buffer() i32 {
    return @intCast(@intFromPtr(&buffer));
}

// Decision kinds (ABI.md, "Decisions and answers").
const kind_observe = 0;
const kind_bet = 1;
const kind_insurance = 2;
const kind_even_money = 3;
const kind_act = 4;
const kind_side_bet = 5;
const kind_back_bet = 6;
const kind_banker_double = 7;
const kind_banker_draw = 8;

export fn pitboss_decide(kind: i32) i64 {
    switch (kind) {
        kind_bet => { // twice the minimum if the maximum allows, else the minimum
            const min = readI64(32);
            const max = readI64(40);
            return if (2 * min <= max) 2 * min else min;
        },
        kind_act => {
            const legal = buffer[7];
            const n = buffer[9];
            var hard: u32 = 0;
            var ace = false;
            for (buffer[88 .. 88 + @as(usize, n)]) |rank| {
                hard += if (rank > 10) 10 else rank;
                ace = ace or rank == 1;
            }
            const soft = ace and hard <= 11;
            const best = if (soft) hard + 10 else hard;
            const wants_hit = if (soft) best < 18 else best < 13;
            return if (wants_hit and (legal & 2) != 0) 1 else 0;
        },
        else => return 0,
    }
}
