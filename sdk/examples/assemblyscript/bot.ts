// A complete Pitboss bot in AssemblyScript, written against sdk/ABI.md alone.
//
// Build (AssemblyScript from npm: `npm install assemblyscript`):
//   npx asc bot.ts -o bot.wasm -O3 --runtime stub --use abort=
// `--runtime stub` leaves out the garbage collector and `--use abort=` the
// `env.abort` import, so the module is plain: no imports at all.
//
// Strategy: bet the table minimum; double 10 or 11 when allowed; hit
// below 17 (below 18 on a soft hand); stand otherwise.

// The 4096-byte exchange buffer, a static block of memory.
const buffer: usize = memory.data(4096, 16);

// Decision kinds (ABI.md, "Decisions and answers").
const KIND_OBSERVE = 0;
const KIND_BET = 1;
const KIND_INSURANCE = 2;
const KIND_EVEN_MONEY = 3;
const KIND_ACT = 4;
const KIND_SIDE_BET = 5;
const KIND_BACK_BET = 6;
const KIND_BANKER_DOUBLE = 7;
const KIND_BANKER_DRAW = 8;
const STAND = 0;
const HIT = 1;
const DOUBLE = 2;

export function pitboss_abi_version(): i32 {
  return 1;
}

export function pitboss_buffer(): i32 {
  return <i32>buffer;
}

export function pitboss_decide(kind: i32): i64 {
  if (kind == KIND_BET) return load<i64>(buffer + 32); // MIN: wasm is little-endian too
  if (kind != KIND_ACT) return 0; // decline everything else

  const legal = <i32>load<u8>(buffer + 7);
  const cards = load<u8>(buffer + 9);
  let hard = 0;
  let aces = 0;
  for (let i: u32 = 0; i < cards; i++) {
    const rank = <i32>load<u8>(buffer + 88 + i);
    hard += rank > 10 ? 10 : rank;
    if (rank == 1) aces++;
  }
  const soft = aces > 0 && hard + 10 <= 21;
  const best = soft ? hard + 10 : hard;

  if ((best == 10 || best == 11) && (legal & (1 << DOUBLE)) != 0) return DOUBLE;
  // (`best < (soft ? 18 : 17)` would parse as a generic call in AssemblyScript.)
  const stand_on = soft ? 18 : 17;
  if (best < stand_on && (legal & (1 << HIT)) != 0) return HIT;
  return STAND;
}
