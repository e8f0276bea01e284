;; An expensive bot for cost tests: plays as minimal.wat does (bets the
;; minimum, stands), but first counts down from 10,000 on every call, so
;; each decision burns about 30,000 fuel, well below any cap.
(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (local $n i32)
    (local.set $n (i32.const 10000))
    (loop $burn
      (local.tee $n (i32.sub (local.get $n) (i32.const 1)))
      (br_if $burn))
    ;; BET (1): answer the minimum, an i64 at buffer + 32.
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))
