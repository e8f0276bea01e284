// Pitboss bots in JavaScript: the request as JavaScript values, and the
// `Bot` class whose methods answer it (sdk/ABI.md is the contract
// underneath); the same API as the Python SDK (sdk/python/pitboss.py).
//
// Write a subclass of `pitboss.Bot`, override what you want to decide,
// and hand an instance to `pitboss.play()` at the end of your file:
//
//     class Cautious extends pitboss.Bot {
//       act(r) {
//         const [best, soft] = r.total();
//         return best < 12 && r.can(pitboss.HIT) ? pitboss.HIT : pitboss.STAND;
//       }
//     }
//     pitboss.play(new Cautious());
//
// Pitboss runs the file as it is (`pitboss check bot.js`, `path =
// "bot.js"` in a league): its JavaScript runtime (QuickJS) holds this
// file as the global `pitboss` (sdk/ABI.md, "Bots from source"). A bot is
// one script: it imports nothing. `console.log()` writes to the bot's
// log; `Math.random()` is the seat's deterministic stream; `Date` reads
// the virtual clock. An exception is a `trap` fault: its stack goes to
// the log, the decision gets its safe default and the bot starts afresh.
// Under Node.js the same file is a CommonJS module, for a bot's tests.
(function (root) {
  "use strict";

  // 0, 1, …, n - 1.
  const range = (n) => Array.from({ length: n }, (_, i) => i);

  // Decision kinds (ABI.md, "Decisions and answers"; sdk/tests/decisions.rs
  // checks them against the SDK's declaration).
  const [OBSERVE, BET, INSURANCE, EVEN_MONEY, ACT, SIDE_BET, BACK_BET, BANKER_DOUBLE, BANKER_DRAW] = range(9);
  // Actions, the answers to ACT.
  const [STAND, HIT, DOUBLE, SPLIT, SURRENDER] = range(5);
  // Rule sets (`Request.variant`).
  const [NORTH_AMERICAN, SWEDISH, DANISH, NORWEGIAN_HOME] = range(4);
  // Over/Under 13 sides (`Bot.sideBet`).
  const [OVER, UNDER] = [1, 2];

  // Event kinds: an event is an array `[kind, box, hand, card]`.
  const Event = Object.freeze({
    CARD: 1, DEALER_CARD: 2, HOLE_CARD: 3, SHUFFLE: 4, SPLIT: 5, REVEAL: 6, ROUND: 7, PARTIAL_SHUFFLE: 8,
  });

  // Bits of `Request.ruleFlags` and `Request.ruleFlags2`.
  const Rule = Object.freeze({
    HOLE_CARD: 1, DEALER_HITS_SOFT_17: 2, LATE_SURRENDER: 4, DOUBLE_AFTER_SPLIT: 8,
    RESPLIT_ACES: 16, EVEN_MONEY: 32, OVER_UNDER_13: 64, ORIGINAL_BETS_ONLY: 128,
    // ruleFlags2
    SOFT_DOUBLE: 1, ACES_LOW_AFTER_SOFT_DOUBLE: 2, BACK_BETS: 4,
  });

  // A card's value: ace 1, two to ten their number, faces 10.
  function value(rank) {
    return rank > 10 ? 10 : rank;
  }

  // `[best, soft]`: the best total of `cards` (ranks 1-13), an ace
  // counting 11 where that does not pass 21, and whether one does.
  function total(cards) {
    let hard = 0;
    let ace = false;
    for (const rank of cards) {
      hard += rank > 10 ? 10 : rank;
      if (rank === 1) ace = true;
    }
    return ace && hard <= 11 ? [hard + 10, true] : [hard, false];
  }

  // A signed 64-bit little-endian integer of the buffer, as a Number
  // (exact up to 2^53, far beyond any stake).
  function i64(view, at) {
    return view.getUint32(at, true) + view.getInt32(at + 4, true) * 4294967296;
  }

  // One request, read from the exchange buffer (ABI.md, "Request layout").
  // kind, variant, box, handIndex, hands, legal, up (the dealer's up card,
  // 1-13, 0 if none), count (events), round, balance, bet, min, max, unit:
  // the header fields; cards: the current hand's ranks (1 = ace … 13 =
  // king); ruleFlags and ruleFlags2: bytes 59 and 67 (bits: `Rule`).
  class Request {
    constructor(bytes, view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)) {
      this.kind = bytes[2];
      this.variant = bytes[3];
      this.box = bytes[4];
      this.handIndex = bytes[5];
      this.hands = bytes[6];
      this.legal = bytes[7];
      this.up = bytes[8];
      const ncards = bytes[9];
      this.count = view.getUint16(10, true);
      this.round = view.getUint32(12, true);
      this.balance = i64(view, 16);
      this.bet = i64(view, 24);
      this.min = i64(view, 32);
      this.max = i64(view, 40);
      this.unit = i64(view, 48);
      // Plain loops: QuickJS makes Array.from and subarray cost more.
      const cards = [];
      for (let i = 0; i < ncards; i++) cards.push(bytes[88 + i]);
      this.cards = cards;
      this.ruleFlags = bytes[59];
      this.ruleFlags2 = bytes[67];
      this._bytes = bytes;
    }

    // Is `action` (STAND, HIT, …) legal now? (ACT only)
    can(action) {
      return ((this.legal >> action) & 1) === 1;
    }

    // `[best, soft]` of the current hand, as `total()`.
    total() {
      return total(this.cards);
    }

    // Events since the previous request, oldest first, as
    // `[kind, box, hand, card]` arrays (kinds: `Event`).
    events() {
      const out = [];
      const bytes = this._bytes;
      for (let at = 120; at < 120 + 4 * this.count; at += 4) {
        out.push([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
      }
      return out;
    }

    // The whole 32-byte rules block (ABI.md, "Rules block").
    rules() {
      return this._bytes.slice(56, 88);
    }
  }

  // Override the decisions you care about; the others keep these
  // defaults, which are those of the Rust SDK's `Strategy`.
  class Bot {
    // Every event since the previous request, before the decision.
    observe(events) {}

    // Stake for box `r.box`: 0 sits out. Default: the table minimum.
    bet(r) {
      return r.balance >= r.min ? r.min : 0;
    }

    // Insurance stake, 0 to decline. Default: decline.
    insurance(r) {
      return 0;
    }

    // Take even money on a blackjack? Default: no.
    evenMoney(r) {
      return false;
    }

    // STAND, HIT, DOUBLE, SPLIT or SURRENDER; `r.can(action)` says which
    // are legal. Default: hit below 17.
    act(r) {
      return r.total()[0] < 17 && r.can(HIT) ? HIT : STAND;
    }

    // Over/Under 13: `[OVER or UNDER, amount]`, or `[0, 0]` for none.
    sideBet(r) {
      return [0, 0];
    }

    // Stake behind box `r.box`, 0 to pass. Default: pass.
    backBet(r) {
      return 0;
    }

    // As banker, double every stake? Default: no.
    bankerDouble(r) {
      return false;
    }

    // As banker, draw another card? Default: below 17 only.
    bankerDraw(r) {
      return r.total()[0] < 17;
    }
  }

  const state = { bot: null, observes: false, bytes: null, view: null };

  // Makes `bot` (a `Bot`) the one that answers every request.
  function play(bot) {
    if (!(bot instanceof Bot)) throw new TypeError("pitboss.play wants a pitboss.Bot, e.g. pitboss.play(new MyBot())");
    state.bot = bot;
    state.observes = bot.observe !== Bot.prototype.observe;
  }

  // An answer as the integer the host reads.
  function integer(answer, method) {
    if (typeof answer === "boolean") return answer ? 1 : 0;
    const n = Number(answer);
    if (!Number.isFinite(n)) throw new TypeError(`${method}() returned ${String(answer)}, not a number`);
    return Math.trunc(n);
  }

  // Called by the runtime for each request, the buffer's bytes in `bytes`.
  function decide(kind, bytes) {
    const bot = state.bot;
    if (state.bytes !== bytes) {
      state.bytes = bytes;
      state.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    const r = new Request(bytes, state.view);
    if (state.observes && r.count) bot.observe(r.events());
    switch (kind) {
      case ACT:
        return integer(bot.act(r), "act");
      case BET:
        return integer(bot.bet(r), "bet");
      case INSURANCE:
        return integer(bot.insurance(r), "insurance");
      case EVEN_MONEY:
        return bot.evenMoney(r) ? 1 : 0;
      case SIDE_BET: {
        const [side, amount] = bot.sideBet(r);
        return side ? integer(side, "sideBet") * 4294967296 + (integer(amount, "sideBet") >>> 0) : 0;
      }
      case BACK_BET:
        return integer(bot.backBet(r), "backBet");
      case BANKER_DOUBLE:
        return bot.bankerDouble(r) ? 1 : 0;
      case BANKER_DRAW:
        return bot.bankerDraw(r) ? 1 : 0;
      default:
        return 0;
    }
  }

  const api = Object.freeze({
    OBSERVE, BET, INSURANCE, EVEN_MONEY, ACT, SIDE_BET, BACK_BET, BANKER_DOUBLE, BANKER_DRAW,
    STAND, HIT, DOUBLE, SPLIT, SURRENDER,
    NORTH_AMERICAN, SWEDISH, DANISH, NORWEGIAN_HOME,
    OVER, UNDER, Event, Rule,
    value, total, Request, Bot, play,
    _state: state, _decide: decide,
  });
  root.pitboss = api;
  if (typeof module === "object" && module && module.exports) module.exports = api;
})(globalThis);
