;; A complete Pitboss bot in hand-written WebAssembly text, against
;; sdk/ABI.md alone. No build step: `pitboss` loads .wat files directly
;; (or assemble it with `wat2wasm bot.wat`).
;;
;; Strategy: bet the table minimum; hit below 17, counting an ace as 11
;; when that does not pass 21; stand otherwise.
(module
  (memory (export "memory") 1)
  ;; The exchange buffer lives at 1024..5120.
  (global $buf i32 (i32.const 1024))

  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) global.get $buf)

  ;; Best total of the current hand: HAND_LEN at +9, cards at +88.
  (func $best (result i32)
    (local $i i32) (local $n i32) (local $rank i32) (local $hard i32) (local $ace i32)
    (local.set $n (i32.load8_u offset=9 (global.get $buf)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $rank (i32.load8_u offset=88 (i32.add (global.get $buf) (local.get $i))))
        (if (i32.eq (local.get $rank) (i32.const 1)) (then (local.set $ace (i32.const 1))))
        (if (i32.gt_u (local.get $rank) (i32.const 10)) (then (local.set $rank (i32.const 10))))
        (local.set $hard (i32.add (local.get $hard) (local.get $rank)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (if (result i32) (i32.and (local.get $ace) (i32.le_u (local.get $hard) (i32.const 11)))
      (then (i32.add (local.get $hard) (i32.const 10)))
      (else (local.get $hard))))

  (func (export "pitboss_decide") (param $kind i32) (result i64)
    ;; BET (1): the minimum, an i64 at +32.
    (if (i32.eq (local.get $kind) (i32.const 1))
      (then (return (i64.load offset=32 (global.get $buf)))))
    ;; ACT (4): hit (1) below 17 if hitting is legal (bit 1 of LEGAL at +7).
    (if (i32.eq (local.get $kind) (i32.const 4))
      (then
        (if (i32.and
              (i32.lt_u (call $best) (i32.const 17))
              (i32.and (i32.load8_u offset=7 (global.get $buf)) (i32.const 2)))
          (then (return (i64.const 1))))))
    (i64.const 0)))
